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
                             "unboxing null", "empty range", "failing cast",
                             "negative array size"}) {
    if (absl::StrContains(why, marker)) return true;
  }
  return false;
}

// The reason without the case label and object ids, so that observations
// undecided for the same reason count together.
std::string GeneralReason(const std::string& why) {
  std::string out = why;
  size_t label = out.find("): ");
  if (absl::StartsWith(out, "case ") && label != std::string::npos) out = out.substr(label + 3);
  std::string cleaned;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out.compare(i, 5, " of #") == 0) {
      size_t j = i + 5;
      while (j < out.size() && isdigit(static_cast<unsigned char>(out[j]))) ++j;
      if (j > i + 5) {
        i = j - 1;
        continue;
      }
    }
    cleaned += out[i];
  }
  return cleaned;
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
  int rejected_failing = 0;  // calls of failing tests the contract rejects
  for (size_t i = 0; i < observations.size(); ++i) {
    const v1::Observation& obs = observations[i];
    jml::EvalOptions options;
    options.env = spec.env;
    jml::ObservationEvaluator evaluator(obs, *spec.context, options);
    jml::SpecEval eval = evaluator.EvaluateSpec(*spec.spec);
    if (eval.admitted == jml::Truth::kTrue) {
      ++r.admitted;
      r.verdicts.push_back("admitted");
      continue;
    }
    // The case that decided, and why.
    std::string why;
    bool undefined = false;
    for (const jml::CaseEval& c : eval.cases) {
      if (c.why.empty()) continue;
      if (why.empty()) why = absl::StrCat(c.label, ": ", c.why);  // fallback
    }
    for (const jml::CaseEval& c : eval.cases) {
      if (c.why.empty() || c.pre == jml::Truth::kFalse) continue;
      bool decides = eval.admitted == jml::Truth::kFalse
                         ? c.post == jml::Truth::kFalse
                         : c.pre == jml::Truth::kUnknown || c.post == jml::Truth::kUnknown;
      if (!decides) continue;
      why = absl::StrCat(c.label, ": ", c.why);
      undefined = eval.admitted == jml::Truth::kUnknown && IsUndefinedReason(c.why);
      break;
    }
    if (eval.admitted == jml::Truth::kFalse && why.empty()) {
      why = "no spec case's requires holds";
    }
    if (eval.admitted == jml::Truth::kUnknown && !undefined) {
      // Unrecorded values are free: the observation is admitted.
      ++r.admitted;
      ++undecided_total;
      ++undecided[GeneralReason(why)];
      r.verdicts.push_back(absl::StrCat("undecided: ", why));
      continue;
    }
    if (!undefined && obs.test_failed()) {
      // A call of a failing test: the project's tests say this behaviour
      // is wrong, so a contract rejecting it agrees with them.
      ++rejected_failing;
      r.verdicts.push_back(absl::StrCat("rejected as its failing test expects: ", why));
      continue;
    }
    r.verdicts.push_back(absl::StrCat(undefined ? "undefined: " : "rejected: ", why));
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
  r.status = r.admitted + rejected_failing == r.total ? CheckStatus::kPass : CheckStatus::kFail;
  r.complete = true;
  r.summary = absl::StrCat(r.admitted, " of ", r.total, " observations admitted");
  if (rejected_failing > 0) {
    absl::StrAppend(&r.summary, ", ", rejected_failing, rejected_failing == 1 ? " call" : " calls",
                    " of failing tests rejected (as those tests expect)");
  }
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
