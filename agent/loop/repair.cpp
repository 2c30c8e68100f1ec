// Pre-check and well-definedness guards; see repair.h.
#include "agent/loop/repair.h"

#include <algorithm>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"

namespace tracespec::loop {
namespace {

using jml::Expr;
using jml::ExprKind;

// One guard: the text added, and spellings that show the clause already
// states it.
struct Obligation {
  std::string guard;
  std::vector<std::string> present_as;
  std::string what;  // the construct that needs it ("\result[0]")
};

bool IsResult(const Expr& e) { return e.kind == ExprKind::kResult; }

bool MentionsAny(const Expr& e, const std::set<std::string>& names) {
  if (e.kind == ExprKind::kName && names.count(e.name) > 0) return true;
  for (const auto& op : e.operands) {
    if (op != nullptr && MentionsAny(*op, names)) return true;
  }
  return false;
}

bool IsIntLiteral(const Expr& e, uint64_t* value) {
  if (e.kind != ExprKind::kLiteral || e.literal.kind != jml::LiteralKind::kInt) return false;
  *value = e.literal.bits;
  return true;
}

class ObligationCollector {
 public:
  void Visit(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kOld: {
        // An access inside \old is evaluated in the pre-state: so is its
        // guard (`\old(0 <= size - 1)`, not `0 <= size - 1` of the
        // post-state, where pop's size is one less).
        ++in_old_;
        VisitOperands(e);
        --in_old_;
        return;
      }
      case ExprKind::kQuantifier: {
        std::vector<std::string> added;
        for (const jml::BoundVar& v : e.bound_vars) {
          if (bound_.insert(v.name).second) added.push_back(v.name);
        }
        VisitOperands(e);
        for (const std::string& v : added) bound_.erase(v);
        return;
      }
      case ExprKind::kArrayAccess: {
        if (e.operands.size() != 2) break;
        const Expr& base = *e.operands[0];
        const Expr& index = *e.operands[1];
        std::string b = jml::PrintExpr(base);
        if (IsResult(base)) NullGuard(base, jml::PrintExpr(e));
        if (!MentionsAny(index, bound_) && !MentionsAny(base, bound_)) {
          uint64_t k = 0;
          std::string what = jml::PrintExpr(e);
          if (IsIntLiteral(index, &k) && k < (1u << 30)) {
            Add({absl::StrCat(b, ".length >= ", k + 1),
                 {absl::StrCat(b, ".length >= ", k + 1), absl::StrCat(b, ".length > ", k),
                  absl::StrCat(k, " < ", b, ".length"), absl::StrCat(k + 1, " <= ", b, ".length")},
                 what});
          } else if (!IsIntLiteral(index, &k)) {
            std::string i = jml::PrintExpr(index);
            Add({absl::StrCat("0 <= ", i), {absl::StrCat("0 <= ", i), absl::StrCat(i, " >= 0")},
                 what});
            Add({absl::StrCat(i, " < ", b, ".length"),
                 {absl::StrCat(i, " < ", b, ".length"), absl::StrCat(b, ".length > ", i)},
                 what});
          }
        }
        VisitOperands(e);
        return;
      }
      case ExprKind::kFieldAccess:
        if (!e.operands.empty() && e.operands[0] != nullptr && IsResult(*e.operands[0])) NullGuard(*e.operands[0], jml::PrintExpr(e));
        VisitOperands(e);
        return;
      case ExprKind::kMethodCall: {
        const Expr* receiver = jml::Receiver(e);
        if (receiver != nullptr && IsResult(*receiver)) NullGuard(*receiver, jml::PrintExpr(e));
        VisitOperands(e);
        return;
      }
      default:
        break;
    }
    VisitOperands(e);
  }

  const std::vector<Obligation>& obligations() const { return obligations_; }

 private:
  void VisitOperands(const Expr& e) {
    for (const auto& op : e.operands) {
      if (op != nullptr) Visit(*op);
    }
  }
  void NullGuard(const Expr& base, const std::string& what) {
    std::string b = jml::PrintExpr(base);
    Add({b + " != null", {b + " != null", "null != " + b}, what});
  }
  void Add(Obligation o) {
    if (in_old_ > 0) {
      o.guard = absl::StrCat("\\old(", o.guard, ")");
      for (std::string& p : o.present_as) p = absl::StrCat("\\old(", p, ")");
    }
    for (const Obligation& seen : obligations_) {
      if (seen.guard == o.guard) return;
    }
    obligations_.push_back(std::move(o));
  }

  std::set<std::string> bound_;
  std::vector<Obligation> obligations_;
  int in_old_ = 0;
};

// Repairs one predicate in place; returns the reason, or "" when nothing
// was missing.
absl::StatusOr<std::string> GuardPredicate(jml::ExprPtr* pred) {
  ObligationCollector collector;
  collector.Visit(**pred);
  std::string text = jml::PrintExpr(**pred);
  std::vector<std::string> missing;
  std::vector<std::string> needs;
  for (const Obligation& o : collector.obligations()) {
    bool present = false;
    for (const std::string& spelling : o.present_as) {
      if (absl::StrContains(text, spelling)) present = true;
    }
    if (present) continue;
    missing.push_back(o.guard);
    if (std::find(needs.begin(), needs.end(), o.what) == needs.end()) needs.push_back(o.what);
  }
  if (missing.empty()) return std::string();
  std::string guard = absl::StrJoin(missing, " && ");
  TS_ASSIGN_OR_RETURN(jml::ExprPtr guard_expr, jml::ParseExpressionText(guard, "<guard>"));
  auto implies = std::make_unique<Expr>();
  implies->kind = ExprKind::kBinary;
  implies->binary_op = jml::BinaryOp::kImplies;
  implies->span = (*pred)->span;
  implies->operands.push_back(std::move(guard_expr));
  implies->operands.push_back(std::move(*pred));
  *pred = std::move(implies);
  return absl::StrCat(absl::StrJoin(needs, ", "), needs.size() == 1 ? " is" : " are",
                      " undefined unless ", guard, ": guarded");
}

absl::Status RepairCase(jml::SpecCase* c, std::vector<Repair>* repairs) {
  for (jml::Clause& clause : c->clauses) {
    if (clause.kind != jml::ClauseKind::kEnsures && clause.kind != jml::ClauseKind::kSignals) {
      continue;
    }
    if (clause.pred == nullptr || clause.pred->kind == ExprKind::kJmlKeyword) continue;
    std::string before = jml::PrintClause(clause);
    TS_ASSIGN_OR_RETURN(std::string reason, GuardPredicate(&clause.pred));
    if (reason.empty()) continue;
    repairs->push_back({before, jml::PrintClause(clause), reason});
  }
  for (jml::SpecCase& nested : c->nested) TS_RETURN_IF_ERROR(RepairCase(&nested, repairs));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PreparedCandidate> PrepareCandidate(absl::string_view jml) {
  TS_ASSIGN_OR_RETURN(jml::SpecText parsed, jml::ParseSpecText(jml, "candidate.jml"));
  if (parsed.spec.cases.empty()) {
    return absl::InvalidArgumentError("candidate.jml: the contract has no specification case");
  }
  PreparedCandidate out;
  for (jml::SpecCase& c : parsed.spec.cases) TS_RETURN_IF_ERROR(RepairCase(&c, &out.repairs));
  if (out.repairs.empty()) {
    out.jml = std::string(jml);
    if (!out.jml.empty() && out.jml.back() != '\n') out.jml += '\n';
  } else {
    out.jml = jml::PrintAsAnnotationComments(parsed.spec);
  }
  return out;
}

std::string FormatRepairs(const std::vector<Repair>& repairs) {
  std::string out;
  for (const Repair& r : repairs) {
    absl::StrAppend(&out, r.reason, "\n  was: ", r.clause, "\n  now: ", r.repaired, "\n\n");
  }
  return out;
}

}  // namespace tracespec::loop
