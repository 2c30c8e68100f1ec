// JML → Z3: one pass over a type-checked specification expression, giving a
// term over the symbolic executor's states (pre heap, post heap, receiver,
// arguments, \result, the thrown exception). Internal to validator/check.
//
// Encoding: boolean → Bool; byte/short/char/int → 32-bit vectors (as the
// JVM holds them), long → 64-bit, float/double → IEEE terms, references →
// the executor's 32-bit references, \bigint → mathematical integers, \TYPE →
// the executor's type ids. Arithmetic is Java's (wrap-around, truncating
// division, masked shifts, IEEE-754) unless the type checker typed it as
// \bigint (spec_bigint_math).
//
// Quantifiers and generalized quantifiers: when every bound variable has
// bounds in the range (see jml::ExtractBounds) and the number of values is
// provably at most the expansion cap (array lengths are at most L, constant
// ranges up to 256 values), the range is expanded exactly; otherwise \forall
// and \exists become Z3 quantifiers, and \sum, \product, \num_of, \max, \min
// are unsupported (never truncated).
//
// Well-definedness: every partial operation (null dereference, index out
// of bounds, division by zero, a failing cast, \max/\min of an empty range,
// a pure method call that throws) records the condition under which it is
// reached and undefined, with a description.
#ifndef TRACESPEC_VALIDATOR_CHECK_LOWERING_H_
#define TRACESPEC_VALIDATOR_CHECK_LOWERING_H_

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/jml/ast.h"
#include "validator/jml/type_checker.h"
#include "validator/symex/machine.h"
#include "z3++.h"

namespace tracespec::check {

// A lowered value with its JML type.
struct Term {
  jml::Type type;
  z3::expr e;
};

// Where names point.
struct LowerStates {
  const symex::Heap* pre = nullptr;
  const symex::Heap* post = nullptr;  // null for pre-state clauses
  std::optional<symex::Value> receiver;
  std::vector<symex::Value> args;
  std::optional<symex::Value> result;  // normal exit of a non-void method
  std::optional<z3::expr> thrown;      // exceptional exit: the exception
  // Locals of the method body by name (in-body annotations).
  std::map<std::string, symex::Value> locals;
  // Instance ghost fields of the receiver by name: their values at entry,
  // and where the clause reads a later state (postconditions, body
  // statements) their values there. A ghost field without a value here is
  // unsupported (named).
  std::map<std::string, Term> ghost_pre;
  std::map<std::string, Term> ghost_post;
};

// A place where a clause may be undefined.
struct Undefined {
  z3::expr condition;
  std::string what;  // "null dereference in 'a.length'"
  // The condition with the variables of enclosing Z3 quantifiers left free
  // (equisatisfiable with `condition`), and those variables, so that a
  // model shows the values for which the clause is undefined.
  z3::expr open;
  std::vector<std::pair<std::string, z3::expr>> vars;
};

// Model methods of a class, by name + descriptor. One whose body is
// `return e;` (in `bodies`) is inlined at a call in a specification: e with
// the call's arguments and receiver. One declared without a body (in
// `contracts`) is axiomatised by its specification, as OpenJML does: the
// call is an uninterpreted function of the arguments, and at each call the
// background axioms say that under its requires its value satisfies its
// ensures. That is sound only when the specification admits a value for
// every argument (checked once per method: otherwise the call is
// unsupported, naming the method) and reads nothing but the arguments
// (otherwise unsupported too).
struct ModelMethods {
  std::string owner;  // binary name of the class declaring them
  std::map<std::string, const jml::Expr*> bodies;
  std::map<std::string, const jml::MethodDecl*> contracts;
  // Whether each contract admits a value for every argument, once decided
  // (by name + descriptor): OK, or why the method is not axiomatised.
  mutable std::map<std::string, absl::Status> feasible;
};

class Lowering {
 public:
  // `context` is what is known where the clause is evaluated (entry guard,
  // requires, exit guard): it decides whether a range can be expanded.
  Lowering(symex::Machine& machine, const jml::MethodContext& method, LowerStates states,
           z3::expr context, std::chrono::steady_clock::time_point deadline);

  // A boolean expression; unqualified reads go to the post-state when
  // `in_post` (and there is one), else to the pre-state. Unimplemented for
  // constructs without a lowering (naming them, with position), OutOfRange
  // for a generalized quantifier whose range cannot be expanded exactly,
  // InvalidArgument for expressions that cannot be given a meaning.
  absl::StatusOr<z3::expr> Predicate(const jml::Expr& e, bool in_post);
  absl::StatusOr<Term> Value(const jml::Expr& e, bool in_post);
  // The same, converted to `type` as by assignment (e.g. int to long).
  absl::StatusOr<Term> ValueAs(const jml::Expr& e, bool in_post, const jml::Type& type);

  // Model fields by name: the value of their `represents` clause (in the
  // class of the method, evaluated with `this` the object read from).
  void SetRepresents(const std::map<std::string, const jml::Expr*>* represents) {
    represents_ = represents;
  }

  void SetModelMethods(const ModelMethods* model_methods) { model_methods_ = model_methods; }

  // Adds to what is known where clauses are evaluated (e.g. an earlier
  // requires clause).
  void Strengthen(const z3::expr& fact) { context_ = ops_.And(context_, fact); }

  // Binds the exception variable of a signals clause, a spec-case `old`
  // variable, a `forall` variable or a ghost local variable.
  void BindName(const std::string& name, Term value);

  // Undefined places met since construction (or the last TakeUndefined).
  std::vector<Undefined> TakeUndefined();
  // Obligations of the executions of pure methods called by the clauses.
  const std::vector<symex::Obligation>& call_obligations() const { return call_obligations_; }

  // A store reference (assignable location) as a set of heap locations:
  // the condition that (ref, field id) or (array ref, index) is in it.
  // Evaluated in the pre-state.
  absl::StatusOr<z3::expr> FieldInFrame(const jml::StoreRef& ref, const z3::expr& object,
                                        int field_id);
  absl::StatusOr<z3::expr> ElementInFrame(const jml::StoreRef& ref, const z3::expr& array,
                                          const z3::expr& index);
  absl::StatusOr<z3::expr> StaticInFrame(const jml::StoreRef& ref, int field_id);

  // Conversions between the encodings (exposed for the checks).
  Term FromValue(const symex::Value& v, const jml::Type& type) const;
  z3::expr ToStored(const Term& t) const;

 private:
  struct Scope;
  absl::StatusOr<Term> Lower(const jml::Expr& e);
  absl::StatusOr<Term> LowerName(const jml::Expr& e);
  absl::StatusOr<Term> LowerField(const jml::Expr& e);
  absl::StatusOr<Term> LowerArrayAccess(const jml::Expr& e);
  absl::StatusOr<Term> LowerNewArray(const jml::Expr& e);
  absl::StatusOr<z3::expr> AllocateArray(const jml::Expr& e, const jml::Type& type,
                                         const z3::expr& length, const z3::expr& negative,
                                         symex::Heap& written);
  absl::StatusOr<z3::expr> AllocateArrays(const jml::Expr& e, const jml::Type& type,
                                          const std::vector<z3::expr>& counts,
                                          const z3::expr& negative, size_t dim,
                                          symex::Heap& written, int* rows);
  absl::Status LowerInitializerValues(const std::vector<jml::ExprPtr>& elements,
                                      const jml::Type& type, std::vector<z3::expr>* values);
  absl::StatusOr<z3::expr> AllocateInitialized(const jml::Expr& e,
                                               const std::vector<jml::ExprPtr>& elements,
                                               const jml::Type& type,
                                               const std::vector<z3::expr>& values, size_t* next,
                                               symex::Heap& written);
  void SetHeapAfterCalls(symex::Heap heap);
  absl::StatusOr<Term> LowerUnary(const jml::Expr& e);
  absl::StatusOr<Term> LowerBinary(const jml::Expr& e);
  absl::StatusOr<Term> LowerQuantifier(const jml::Expr& e);
  absl::StatusOr<Term> LowerCall(const jml::Expr& e);
  absl::StatusOr<Term> LowerJmlCall(const jml::Expr& e);
  absl::StatusOr<Term> LowerCast(const jml::Expr& e);
  absl::StatusOr<z3::expr> LowerBool(const jml::Expr& e);
  absl::StatusOr<Term> CallPure(const jml::Expr& e, std::optional<symex::Value> receiver,
                                std::vector<symex::Value> args);
  // Runs the bytecode `target` (a pure method, or a Java model of the JDK)
  // on `args` in the clause's state: its value as `e`'s type.
  absl::StatusOr<Term> RunPure(const jml::Expr& e, const symex::MethodInfo* target,
                               std::optional<symex::Value> receiver,
                               std::vector<symex::Value> args);
  // `l + r` for a String `e`: as Java, through the String models.
  absl::StatusOr<Term> LowerConcat(const jml::Expr& e, const Term& l, const Term& r);
  // A call of a model method without a body: see ModelMethods.
  absl::StatusOr<Term> CallAxiomatised(const jml::Expr& e, const std::string& key,
                                       const jml::MethodDecl& decl,
                                       const std::vector<symex::Value>& args);
  // The conjunction over the spec cases of `decl` of (requires ==> ensures)
  // with `args` for the parameters and `result` for \result; `pre` gets
  // the disjunction of the requires. FailedPrecondition saying why when the
  // specification is not one a call can be axiomatised by.
  absl::StatusOr<z3::expr> ModelContract(const jml::MethodDecl& decl,
                                         const std::vector<symex::Value>& args,
                                         const symex::Value& result, z3::expr* pre);
  absl::StatusOr<Term> CallModel(const jml::Expr& e, const std::string& key,
                                 std::optional<symex::Value> receiver,
                                 std::vector<symex::Value> args);
  Term StaticConstant(const jml::Expr& e, bool* found);

  // Quantifier expansion.
  struct Instance {
    z3::expr range;  // the whole range predicate at this instance
    std::vector<std::pair<int, Term>> values;  // bound var index -> value
  };
  absl::StatusOr<bool> ExpandRange(const jml::Expr& q, std::vector<Instance>* out);
  // Whether hi - lo <= n where the solver can tell (66-bit operands).
  absl::StatusOr<bool> ProvablyAtMost(const z3::expr& lo, const z3::expr& hi, int64_t n);

  Term Convert(const Term& t, const jml::Type& to) const;
  z3::expr BoolOf(const Term& t) const;
  void NoteUndefined(const z3::expr& bad, const jml::Expr& where, const std::string& what);
  const symex::Heap& heap() const;
  absl::Status Unsupported(const jml::Expr& e, const std::string& what) const;
  z3::expr IntOf(const z3::expr& bv, bool is_signed = true) const;

  symex::Machine& machine_;
  const symex::JavaOps& ops_;
  const jml::MethodContext& method_;
  LowerStates states_;
  z3::expr context_;
  std::chrono::steady_clock::time_point deadline_;
  bool in_post_ = false;
  // The heaps after calls of pure methods in the clause (which may have
  // allocated and filled fresh objects: Arrays.copyOf), over the pre- and
  // post-state heaps.
  std::optional<symex::Heap> pre_after_calls_;
  std::optional<symex::Heap> post_after_calls_;
  z3::expr guard_;
  std::vector<Undefined> undefined_;
  std::vector<symex::Obligation> call_obligations_;
  std::map<std::pair<const jml::Expr*, int>, Term> bound_;
  std::map<std::string, Term> named_;
  int fresh_ = 0;
  const std::map<std::string, const jml::Expr*>* represents_ = nullptr;
  const ModelMethods* model_methods_ = nullptr;
  int model_depth_ = 0;
  // Inside the specification of a model method without a body.
  bool in_model_contract_ = false;
  // The variables of the enclosing Z3 quantifiers (innermost last).
  std::vector<z3::expr> quantified_;
};

// The JVM internal name or array descriptor of a JML reference type
// ("bank/Account", "[I").
std::string InternalTypeName(const jml::Type& type);

}  // namespace tracespec::check

#endif  // TRACESPEC_VALIDATOR_CHECK_LOWERING_H_
