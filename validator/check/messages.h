// The checks' values as tracespec.v1 messages, written once for every stage
// that records or sends them: a check's verdict (tracespec.v1.Verdict,
// infer.proto) and back — its status, completeness, cuts and reason as the
// round files, run.json and the validator service carry them, so that no
// stage parses "PASS (complete)" back — and the bounds of a request
// (tracespec.v1.ProjectBounds, project.proto).
#ifndef TRACESPEC_VALIDATOR_CHECK_MESSAGES_H_
#define TRACESPEC_VALIDATOR_CHECK_MESSAGES_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tracespec/v1/infer.pb.h"
#include "tracespec/v1/project.pb.h"
#include "validator/check/validator.h"

namespace tracespec::check {

// Status, complete, proved, cuts and the summary (as `reason`).
v1::Verdict VerdictOf(const CheckResult& result);

// The inverse of VerdictOf on those fields of `result`; the others are
// left as they are. VERDICT_STATUS_UNSPECIFIED reads as SKIPPED.
void ApplyVerdict(const v1::Verdict& verdict, CheckResult* result);

// The request's unwind, max_array and time limit (max_array 0, which the
// message reads as "the default", is InvalidArgument: it cannot be sent).
absl::StatusOr<v1::ProjectBounds> BoundsOf(const ValidateRequest& request);
// Sets the bounds that are set (above 0) on `request`; the others keep
// the request's defaults (unwind 4, max_array 4, 60 s).
void ApplyBounds(const v1::ProjectBounds& bounds, ValidateRequest* request);

}  // namespace tracespec::check

#endif  // TRACESPEC_VALIDATOR_CHECK_MESSAGES_H_
