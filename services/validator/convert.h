// The validator service's messages (proto/tracespec/v1/validator_service.proto)
// and the in-process request and report (validator/check/validator.h), both
// ways: the one place where a call becomes a check::ValidateRequest and a
// check::ValidationReport becomes a reply. The verdicts go through
// check::VerdictOf / ApplyVerdict, as in the round records.
#ifndef TRACESPEC_SERVICES_VALIDATOR_CONVERT_H_
#define TRACESPEC_SERVICES_VALIDATOR_CONVERT_H_

#include "absl/status/statusor.h"
#include "tracespec/v1/validator_service.pb.h"
#include "validator/check/validator.h"

namespace tracespec::services {

// The caller's side. request.method is "pkg.C#m", "pkg.C#m(I)V" or
// "pkg.C#m(int)" (MethodSignature::Parse); errors name it, and bounds
// the message cannot carry (check::BoundsOf: max_array 0).
absl::StatusOr<v1::ValidateCall> CallOf(const check::ValidateRequest& request);

// The server's side: InvalidArgument for a call without a class or method
// name, negative bounds (0 is the default: check::ApplyBounds), or
// observations with has_observations false.
absl::StatusOr<check::ValidateRequest> RequestOf(const v1::ValidateCall& call);

// Everything the report holds (strength is not part of Validate's report),
// plus its text as `tracespec validate` prints it.
v1::ValidateReply ReplyOf(const check::ValidationReport& report);

// The report a reply carries: ReportOf(ReplyOf(r)) formats (FormatReportText,
// FormatReportJson) exactly as r does.
check::ValidationReport ReportOf(const v1::ValidateReply& reply);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_VALIDATOR_CONVERT_H_
