// Tautological clauses and conjuncts; see tautologies.h.
#include "agent/synth/tautologies.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "validator/jml/printer.h"

namespace tracespec::synth {
namespace {

void Conjuncts(const jml::Expr& e, std::vector<const jml::Expr*>* out) {
  if (e.kind == jml::ExprKind::kBinary && e.binary_op == jml::BinaryOp::kAnd &&
      e.operands.size() == 2) {
    Conjuncts(*e.operands[0], out);
    Conjuncts(*e.operands[1], out);
    return;
  }
  out->push_back(&e);
}

// Whether `e` printed alone needs parentheses as an operand of `&&`.
bool BindsLooser(const jml::Expr& e) {
  if (e.kind == jml::ExprKind::kConditional) return true;
  if (e.kind != jml::ExprKind::kBinary) return false;
  switch (e.binary_op) {
    case jml::BinaryOp::kOr:
    case jml::BinaryOp::kImplies:
    case jml::BinaryOp::kReverseImplies:
    case jml::BinaryOp::kEquiv:
    case jml::BinaryOp::kInequiv:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<std::string> WithoutTautologies(const jml::Expr& predicate,
                                              const TautologyTest& is_tautology) {
  std::vector<const jml::Expr*> all;
  Conjuncts(predicate, &all);
  std::vector<const jml::Expr*> kept;
  for (const jml::Expr* c : all) {
    if (!is_tautology || !is_tautology(*c)) kept.push_back(c);
  }
  if (kept.empty()) return std::nullopt;
  if (kept.size() == all.size()) return jml::PrintExpr(predicate);
  if (kept.size() == 1) return jml::PrintExpr(*kept[0]);
  std::vector<std::string> texts;
  for (const jml::Expr* c : kept) {
    std::string text = jml::PrintExpr(*c);
    texts.push_back(BindsLooser(*c) ? absl::StrCat("(", text, ")") : text);
  }
  return absl::StrJoin(texts, " && ");
}

}  // namespace tracespec::synth
