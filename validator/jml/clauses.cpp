// Flattened spec cases, clause enumeration, quantifier bounds; see clauses.h.
#include "validator/jml/clauses.h"

#include "absl/strings/str_cat.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {
namespace {

std::string CaseLabel(const std::string& number, Behavior behavior) {
  std::string kw = BehaviorKeyword(behavior);
  return absl::StrCat("case ", number, " (", kw.empty() ? "lightweight" : kw, ")");
}

void Flatten(const SpecCase& c, const std::string& number, Behavior behavior, Visibility visibility,
             std::vector<const SpecVarDecl*> vars, std::vector<const Clause*> clauses,
             std::vector<FlatCase>* out) {
  for (const auto& v : c.vars) vars.push_back(&v);
  for (const auto& clause : c.clauses) clauses.push_back(&clause);
  if (c.nested.empty()) {
    FlatCase f;
    f.behavior = behavior;
    f.visibility = visibility;
    f.span = c.span;
    f.label = CaseLabel(number, behavior);
    f.vars = std::move(vars);
    f.clauses = std::move(clauses);
    out->push_back(std::move(f));
    return;
  }
  for (size_t i = 0; i < c.nested.size(); ++i) {
    const SpecCase& n = c.nested[i];
    bool own_header = n.behavior != Behavior::kLightweight;
    Flatten(n, absl::StrCat(number, ".", i + 1), NestedBehavior(behavior, n.behavior),
            own_header ? n.visibility : visibility, vars, clauses, out);
  }
}

void Enumerate(const SpecCase& c, const std::string& location, std::vector<ClauseRef>* out) {
  for (const auto& clause : c.clauses) {
    out->push_back(ClauseRef{location, &clause, clause.span, PrintClause(clause)});
  }
  for (size_t i = 0; i < c.nested.size(); ++i) {
    Enumerate(c.nested[i], absl::StrCat(location, " nested ", i + 1), out);
  }
}

bool IsVar(const Expr& e, const std::string& name) {
  return e.kind == ExprKind::kName && e.name == name;
}

}  // namespace

std::vector<FlatCase> FlattenSpecCases(const MethodSpec& spec) {
  std::vector<FlatCase> out;
  for (size_t i = 0; i < spec.cases.size(); ++i) {
    const SpecCase& c = spec.cases[i];
    Flatten(c, absl::StrCat(i + 1), c.behavior, c.visibility, {}, {}, &out);
  }
  return out;
}

std::vector<ClauseRef> EnumerateClauses(const MethodSpec& spec) {
  std::vector<ClauseRef> out;
  for (size_t i = 0; i < spec.cases.size(); ++i) {
    Enumerate(spec.cases[i], CaseLabel(absl::StrCat(i + 1), spec.cases[i].behavior), &out);
  }
  for (size_t i = 0; i < spec.implies_that.size(); ++i) {
    Enumerate(spec.implies_that[i],
              absl::StrCat("implies_that ",
                           CaseLabel(absl::StrCat(i + 1), spec.implies_that[i].behavior)),
              &out);
  }
  for (size_t i = 0; i < spec.examples.size(); ++i) {
    Enumerate(
        spec.examples[i],
        absl::StrCat("for_example ", CaseLabel(absl::StrCat(i + 1), spec.examples[i].behavior)),
        &out);
  }
  return out;
}

void CollectConjuncts(const Expr& e, std::vector<const Expr*>* out) {
  if (e.kind == ExprKind::kBinary && e.binary_op == BinaryOp::kAnd) {
    CollectConjuncts(*e.operands[0], out);
    CollectConjuncts(*e.operands[1], out);
    return;
  }
  out->push_back(&e);
}

bool MentionsName(const Expr& e, const std::string& name) {
  if (e.kind == ExprKind::kName && e.name == name) return true;
  if (e.kind == ExprKind::kQuantifier) {
    for (const auto& v : e.bound_vars) {
      if (v.name == name) return false;  // shadowed inside
    }
  }
  if (e.kind == ExprKind::kLet && e.bound_vars[0].name == name) {
    return MentionsName(*e.operands[0], name);  // shadowed in the body
  }
  for (const auto& op : e.operands) {
    if (MentionsName(*op, name)) return true;
  }
  for (const auto& r : e.store_refs) {
    if ((r.expr && MentionsName(*r.expr, name)) || (r.lo && MentionsName(*r.lo, name)) ||
        (r.hi && MentionsName(*r.hi, name))) {
      return true;
    }
  }
  return false;
}

std::vector<QuantifiedVarBounds> ExtractBounds(const Expr& quantifier) {
  if (quantifier.kind != ExprKind::kQuantifier) return {};
  std::vector<const Expr*> conjuncts;
  if (const Expr* range = QuantifierRange(quantifier)) CollectConjuncts(*range, &conjuncts);
  return ExtractBounds(quantifier.bound_vars, conjuncts);
}

std::vector<QuantifiedVarBounds> ExtractBounds(const std::vector<BoundVar>& vars,
                                               const std::vector<const Expr*>& conjuncts) {
  std::vector<QuantifiedVarBounds> out;
  for (const auto& v : vars) {
    QuantifiedVarBounds b;
    b.var = v.name;
    for (const Expr* c : conjuncts) {
      if (c->kind != ExprKind::kBinary) continue;
      const Expr& l = *c->operands[0];
      const Expr& r = *c->operands[1];
      BinaryOp op = c->binary_op;
      if (op != BinaryOp::kLt && op != BinaryOp::kLe && op != BinaryOp::kGt && op != BinaryOp::kGe)
        continue;
      // Normalise to "x < y" / "x <= y".
      const Expr* small = &l;
      const Expr* large = &r;
      if (op == BinaryOp::kGt || op == BinaryOp::kGe) std::swap(small, large);
      bool inclusive = op == BinaryOp::kLe || op == BinaryOp::kGe;
      if (IsVar(*large, v.name) && !MentionsName(*small, v.name))
        b.lower.push_back(VarBound{small, inclusive});
      if (IsVar(*small, v.name) && !MentionsName(*large, v.name))
        b.upper.push_back(VarBound{large, inclusive});
    }
    out.push_back(std::move(b));
  }
  return out;
}

const std::vector<std::string>& ImplicitRuntimeExceptions() {
  static const std::vector<std::string> kNames = {
      "java.lang.NullPointerException", "java.lang.ArrayIndexOutOfBoundsException",
      "java.lang.ArithmeticException", "java.lang.NegativeArraySizeException",
      "java.lang.ClassCastException"};
  return kNames;
}

bool RestrictsImplicitExceptions(const FlatCase& c) { return c.behavior == Behavior::kLightweight; }

std::vector<Type> MentionedExceptionTypes(const FlatCase& c) {
  std::vector<Type> out;
  for (const Clause* cl : c.clauses) {
    if (cl->kind == ClauseKind::kSignalsOnly) {
      for (const TypeRef& t : cl->types) out.push_back(t.resolved);
    } else if (cl->kind == ClauseKind::kSignals) {
      out.push_back(cl->exception_type.resolved);
    }
  }
  return out;
}

}  // namespace tracespec::jml
