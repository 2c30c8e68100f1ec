// What a failed exchange with a model server carries besides its message:
// the HTTP status, the server's Retry-After, and whether the failure was in
// the transport (connection refused, timeout). Attached to absl::Status as a
// payload, so decorators can decide on retries without parsing messages.
#ifndef TRACESPEC_AGENT_GATEWAY_ERRORS_H_
#define TRACESPEC_AGENT_GATEWAY_ERRORS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace tracespec::gateway {

struct ExchangeFailure {
  // HTTP status of the answer; 0 when none arrived.
  int http_status = 0;
  // The server's Retry-After, when it sent one.
  std::optional<absl::Duration> retry_after;
  // No (complete) answer: cannot connect, reset, timeout.
  bool transport = false;
  // HTTP attempts made (set by RetryingClient; 0 = not counted).
  int attempts = 0;
  // Size and SHA-256 (hex) of the error answer's body, when one arrived.
  uint64_t response_size = 0;
  std::string response_sha256;
};

// `status` with `failure` attached (status must not be OK).
absl::Status WithExchangeFailure(absl::Status status, const ExchangeFailure& failure);

// The attached failure; all defaults when there is none.
ExchangeFailure ExchangeFailureOf(const absl::Status& status);

// Worth another attempt: a transport failure or HTTP 408, 409, 429, 5xx.
bool IsRetryable(const absl::Status& status);

// The status code for an HTTP status (429 -> ResourceExhausted, 401 ->
// Unauthenticated, 5xx -> Unavailable, ...).
absl::StatusCode StatusCodeForHttp(int http_status);

// Set by the audited client on the PermissionDenied of a blocked request:
// the rule of the gate's first finding ("secret.github-token").
absl::Status WithBlockedRule(absl::Status status, const std::string& rule);
// "" when the status names no rule.
std::string BlockedRuleOf(const absl::Status& status);

// Set on the status a dry run returns instead of an answer.
absl::Status DryRunStatus(const std::string& message);
bool IsDryRun(const absl::Status& status);

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_ERRORS_H_
