// Coverage: each recorded observation evaluated against the specification
// (jml::ObservationEvaluator); see validator.h.
#include <chrono>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "validator/check/checks.h"
#include "validator/jml/observation_eval.h"

namespace tracespec::check {
namespace {

// Reasons of unknown values that come from an undefined operation (rather
// than from a value the observation did not record).
bool IsUndefinedReason(const std::string& why) {
  for (const char* marker : {"by zero", "out of bounds", "of null", "null dereference",
                             "unboxing null", "empty range", "failing cast"}) {
    if (absl::StrContains(why, marker)) return true;
  }
  return false;
}

std::string Describe(const v1::Observation& o, int index) {
  std::string test = o.test_id().empty() ? "" : absl::StrCat(" of ", o.test_id());
  return absl::StrCat("observation ", index + 1, test);
}

}  // namespace

CheckResult CheckCoverage(const std::vector<v1::Observation>& observations,
                          const SpecUnderCheck& spec) {
  auto start = std::chrono::steady_clock::now();
  CheckResult r;
  r.total = static_cast<int>(observations.size());
  std::map<std::string, int> undecided;  // reason -> count
  int undecided_total = 0;
  int ill_defined = 0;
  for (size_t i = 0; i < observations.size(); ++i) {
    const v1::Observation& obs = observations[i];
    jml::EvalOptions options;
    options.env = spec.env;
    jml::ObservationEvaluator evaluator(obs, *spec.context, options);
    jml::SpecEval eval = evaluator.EvaluateSpec(*spec.spec);
    if (eval.admitted == jml::Truth::kTrue) {
      ++r.admitted;
      continue;
    }
    // The case that decided, and why.
    std::string why;
    bool undefined = false;
    for (const jml::CaseEval& c : eval.cases) {
      if (c.why.empty()) continue;
      if (eval.admitted == jml::Truth::kFalse && c.pre != jml::Truth::kFalse &&
          c.post == jml::Truth::kFalse) {
        why = absl::StrCat(c.label, ": ", c.why);
        break;
      }
      if (why.empty()) why = absl::StrCat(c.label, ": ", c.why);
      if (eval.admitted == jml::Truth::kUnknown && IsUndefinedReason(c.why)) {
        undefined = true;
        why = absl::StrCat(c.label, ": ", c.why);
        break;
      }
    }
    if (eval.admitted == jml::Truth::kFalse && why.empty()) {
      why = "no spec case's requires holds";
    }
    if (eval.admitted == jml::Truth::kUnknown && !undefined) {
      // Unrecorded values are free: the observation is admitted.
      ++r.admitted;
      ++undecided_total;
      std::string reason = why;
      size_t colon = reason.rfind('(');
      if (colon != std::string::npos && reason.back() == ')') {
        reason = reason.substr(colon + 1, reason.size() - colon - 2);
      }
      ++undecided[reason];
      continue;
    }
    Diagnostic d;
    d.kind = undefined ? Diagnostic::Kind::kWellDefinedness : Diagnostic::Kind::kViolated;
    d.message = absl::StrCat(Describe(obs, static_cast<int>(i)),
                             undefined ? " makes a clause undefined: " : " is rejected: ", why);
    d.counterexamples.push_back(static_cast<int>(r.counterexamples.size()));
    r.counterexamples.push_back(obs);
    r.explanations.push_back(absl::StrCat(Describe(obs, static_cast<int>(i)), ": ", why));
    r.diagnostics.push_back(std::move(d));
    if (undefined) ++ill_defined;
  }
  r.status = r.admitted == r.total ? CheckStatus::kPass : CheckStatus::kFail;
  r.complete = true;
  r.summary = absl::StrCat(r.admitted, " of ", r.total, " observations admitted");
  if (undecided_total > 0) {
    std::vector<std::string> reasons;
    for (const auto& [reason, count] : undecided) reasons.push_back(reason);
    absl::StrAppend(&r.summary, ", ", undecided_total, " undecided: ", absl::StrJoin(reasons, "; "));
  }
  if (ill_defined > 0) absl::StrAppend(&r.summary, ", ", ill_defined, " with undefined clauses");
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace tracespec::check
