// Views of a parsed specification that later stages build on: spec cases
// flattened (nested {| |} cases desugared into their outer header), every
// clause listed with its location and span (for reports and the refinement
// loop), and the syntactic bounds of quantified variables (for deciding how
// a quantifier is encoded).
#ifndef TRACESPEC_VALIDATOR_JML_CLAUSES_H_
#define TRACESPEC_VALIDATOR_JML_CLAUSES_H_

#include <string>
#include <vector>

#include "validator/jml/ast.h"

namespace tracespec::jml {

// One spec case with nesting desugared (JML RM §9.6): the clauses of the
// enclosing headers followed by the nested case's own; its behavior is
// NestedBehavior of the enclosing ones and its own, its visibility its own
// when it has a header.
struct FlatCase {
  Behavior behavior = Behavior::kLightweight;
  Visibility visibility = Visibility::kPackage;
  SourceSpan span;
  std::string label;  // "case 2 (exceptional_behavior)", "case 1.2 (behavior)"
  std::vector<const SpecVarDecl*> vars;
  std::vector<const Clause*> clauses;
};
// The cases of spec.cases (not implies_that or for_example), in order.
std::vector<FlatCase> FlattenSpecCases(const MethodSpec& spec);

// A clause of a specification with where it is.
struct ClauseRef {
  std::string location;  // "case 1 (normal_behavior)", "implies_that case 1", ...
  const Clause* clause = nullptr;
  SourceSpan span;
  std::string text;  // canonical text of the clause
};
// Implicit runtime exceptions in lightweight specification cases (as
// OpenJML checks them): a lightweight case (no behavior keyword) does not
// admit an exit by one of the exceptions the JVM raises on its own —
// NullPointerException, ArrayIndexOutOfBoundsException, ArithmeticException,
// NegativeArraySizeException, ClassCastException (binary names, in that
// order) — unless the case or the method mentions a type the exception is
// an instance of: a signals_only or signals clause of the case, or the
// method's throws clause. (A heavyweight `behavior` case keeps JML's
// default signals_only, which allows every RuntimeException.)
const std::vector<std::string>& ImplicitRuntimeExceptions();
// Whether the rule above applies to `c` (a lightweight case), and the types
// its signals_only and signals clauses mention (the caller adds the throws
// clause).
bool RestrictsImplicitExceptions(const FlatCase& c);
std::vector<Type> MentionedExceptionTypes(const FlatCase& c);

// Every clause, in source order: spec cases, then implies_that, then
// for_example; nested cases included.
std::vector<ClauseRef> EnumerateClauses(const MethodSpec& spec);

// Bounds of one quantified variable found among the top-level conjuncts of
// a quantifier's range: `lo <= i`, `lo < i`, `i >= lo`, `i > lo` give lower
// bounds; `i < hi`, `i <= hi`, `hi > i`, `hi >= i` upper ones. A bound
// expression never mentions the variable itself (it may mention other
// bound variables, as in 0 <= i && i < j && j < n).
struct VarBound {
  const Expr* expr = nullptr;
  bool inclusive = false;
};
struct QuantifiedVarBounds {
  std::string var;
  std::vector<VarBound> lower;
  std::vector<VarBound> upper;
};
// One entry per bound variable of `quantifier` (a kQuantifier expression).
std::vector<QuantifiedVarBounds> ExtractBounds(const Expr& quantifier);
// The same over given conjuncts (e.g. also the antecedent of a \forall body).
std::vector<QuantifiedVarBounds> ExtractBounds(const std::vector<BoundVar>& vars,
                                               const std::vector<const Expr*>& conjuncts);

// The top-level conjuncts of `e` (operands of nested &&), left to right.
void CollectConjuncts(const Expr& e, std::vector<const Expr*>* out);

// True when `e` mentions the simple name `name` (not as a field name).
bool MentionsName(const Expr& e, const std::string& name);

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_CLAUSES_H_
