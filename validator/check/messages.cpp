#include "validator/check/messages.h"

#include "absl/strings/str_cat.h"

namespace tracespec::check {

v1::Verdict VerdictOf(const CheckResult& result) {
  v1::Verdict v;
  switch (result.status) {
    case CheckStatus::kPass: v.set_status(v1::VERDICT_PASS); break;
    case CheckStatus::kFail: v.set_status(v1::VERDICT_FAIL); break;
    case CheckStatus::kError: v.set_status(v1::VERDICT_ERROR); break;
    case CheckStatus::kUnknown: v.set_status(v1::VERDICT_UNKNOWN); break;
    case CheckStatus::kSkipped: v.set_status(v1::VERDICT_SKIPPED); break;
  }
  v.set_complete(result.complete);
  v.set_proved(result.proved);
  v.set_inputs_cut(result.inputs_cut);
  for (const std::string& c : result.cuts) v.add_cuts(c);
  v.set_reason(result.summary);
  return v;
}

void ApplyVerdict(const v1::Verdict& verdict, CheckResult* result) {
  switch (verdict.status()) {
    case v1::VERDICT_PASS: result->status = CheckStatus::kPass; break;
    case v1::VERDICT_FAIL: result->status = CheckStatus::kFail; break;
    case v1::VERDICT_ERROR: result->status = CheckStatus::kError; break;
    case v1::VERDICT_UNKNOWN: result->status = CheckStatus::kUnknown; break;
    default: result->status = CheckStatus::kSkipped; break;
  }
  result->complete = verdict.complete();
  result->proved = verdict.proved();
  result->inputs_cut = verdict.inputs_cut();
  result->cuts.assign(verdict.cuts().begin(), verdict.cuts().end());
  result->summary = verdict.reason();
}

absl::StatusOr<v1::ProjectBounds> BoundsOf(const ValidateRequest& request) {
  if (request.unwind < 1 || request.max_array < 1 || !(request.timeout_seconds > 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        request.method, ": bounds out of range (unwind ", request.unwind, ", max_array ",
        request.max_array, ", time limit ", request.timeout_seconds,
        " s): unwind and max_array must be at least 1 and the time limit above 0"));
  }
  v1::ProjectBounds bounds;
  bounds.set_unwind(request.unwind);
  bounds.set_max_array(request.max_array);
  bounds.set_check_timeout_seconds(request.timeout_seconds);
  return bounds;
}

void ApplyBounds(const v1::ProjectBounds& bounds, ValidateRequest* request) {
  if (bounds.unwind() > 0) request->unwind = bounds.unwind();
  if (bounds.max_array() > 0) request->max_array = bounds.max_array();
  if (bounds.check_timeout_seconds() > 0) request->timeout_seconds = bounds.check_timeout_seconds();
}

}  // namespace tracespec::check
