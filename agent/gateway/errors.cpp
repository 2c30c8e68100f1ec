// Exchange failures as status payloads; see errors.h.
#include "agent/gateway/errors.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace tracespec::gateway {
namespace {

constexpr char kFailureUrl[] = "type.tracespec.dev/gateway.ExchangeFailure";
constexpr char kDryRunUrl[] = "type.tracespec.dev/gateway.DryRun";
constexpr char kBlockedRuleUrl[] = "type.tracespec.dev/gateway.BlockedRule";

}  // namespace

absl::Status WithExchangeFailure(absl::Status status, const ExchangeFailure& failure) {
  std::string encoded =
      absl::StrCat("http_status=", failure.http_status, ";transport=", failure.transport ? 1 : 0,
                   ";attempts=", failure.attempts);
  if (!failure.response_sha256.empty()) {
    absl::StrAppend(&encoded, ";response_size=", failure.response_size,
                    ";response_sha256=", failure.response_sha256);
  }
  if (failure.retry_after) {
    absl::StrAppend(&encoded, ";retry_after_ms=", absl::ToInt64Milliseconds(*failure.retry_after));
  }
  status.SetPayload(kFailureUrl, absl::Cord(encoded));
  return status;
}

ExchangeFailure ExchangeFailureOf(const absl::Status& status) {
  ExchangeFailure failure;
  auto payload = status.GetPayload(kFailureUrl);
  if (!payload) return failure;
  for (absl::string_view part : absl::StrSplit(std::string(*payload), ';')) {
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(part, '=');
    if (kv.first == "response_sha256") failure.response_sha256 = std::string(kv.second);
    int64_t value = 0;
    if (!absl::SimpleAtoi(kv.second, &value)) continue;
    if (kv.first == "http_status") failure.http_status = static_cast<int>(value);
    if (kv.first == "transport") failure.transport = value != 0;
    if (kv.first == "attempts") failure.attempts = static_cast<int>(value);
    if (kv.first == "response_size") failure.response_size = static_cast<uint64_t>(value);
    if (kv.first == "retry_after_ms") failure.retry_after = absl::Milliseconds(value);
  }
  return failure;
}

bool IsRetryable(const absl::Status& status) {
  if (status.ok()) return false;
  ExchangeFailure failure = ExchangeFailureOf(status);
  if (failure.transport) return true;
  int code = failure.http_status;
  return code == 408 || code == 409 || code == 429 || (code >= 500 && code <= 599);
}

absl::StatusCode StatusCodeForHttp(int http_status) {
  switch (http_status) {
    case 400: return absl::StatusCode::kInvalidArgument;
    case 401: return absl::StatusCode::kUnauthenticated;
    case 403: return absl::StatusCode::kPermissionDenied;
    case 404: return absl::StatusCode::kNotFound;
    case 408: return absl::StatusCode::kDeadlineExceeded;
    case 409: return absl::StatusCode::kAborted;
    case 413: return absl::StatusCode::kInvalidArgument;
    case 429: return absl::StatusCode::kResourceExhausted;
  }
  if (http_status >= 500) return absl::StatusCode::kUnavailable;
  return absl::StatusCode::kUnknown;
}

absl::Status WithBlockedRule(absl::Status status, const std::string& rule) {
  status.SetPayload(kBlockedRuleUrl, absl::Cord(rule));
  return status;
}

std::string BlockedRuleOf(const absl::Status& status) {
  auto payload = status.GetPayload(kBlockedRuleUrl);
  return payload ? std::string(*payload) : std::string();
}

absl::Status DryRunStatus(const std::string& message) {
  absl::Status status = absl::CancelledError(message);
  status.SetPayload(kDryRunUrl, absl::Cord("1"));
  return status;
}

bool IsDryRun(const absl::Status& status) { return status.GetPayload(kDryRunUrl).has_value(); }

}  // namespace tracespec::gateway
