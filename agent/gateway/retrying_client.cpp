// Retries with backoff; see retrying_client.h.
#include "agent/gateway/retrying_client.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "agent/gateway/errors.h"

namespace tracespec::gateway {
namespace {

absl::Status WithAttempts(const absl::Status& status, int attempts, absl::string_view why) {
  absl::Status out(status.code(), absl::StrCat(status.message(), " (after ", attempts,
                                               attempts == 1 ? " attempt" : " attempts",
                                               why.empty() ? "" : "; ", why, ")"));
  status.ForEachPayload(
      [&out](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  ExchangeFailure failure = ExchangeFailureOf(status);
  failure.attempts = attempts;
  return WithExchangeFailure(std::move(out), failure);
}

}  // namespace

absl::Duration BackoffDelay(const RetryOptions& options, int retry, double unit) {
  double scale = std::pow(options.multiplier, std::max(retry - 1, 0));
  absl::Duration base = std::min(options.max_backoff, options.initial_backoff * scale);
  return base * (0.5 + 0.5 * unit);
}

RetryingClient::RetryingClient(std::unique_ptr<LlmClient> inner, RetryOptions options)
    : inner_(std::move(inner)), options_(options), random_(options.jitter_seed) {}

double RetryingClient::NextUnit() {
  std::lock_guard<std::mutex> lock(mutex_);
  // 53 random bits -> [0, 1), the same on every platform.
  return static_cast<double>(random_() >> 11) * 0x1.0p-53;
}

absl::StatusOr<LlmResponse> RetryingClient::Complete(const LlmRequest& request) {
  absl::Time start = absl::Now();
  absl::Time deadline = start + options_.deadline;
  int max_attempts = std::max(options_.max_attempts, 1);
  for (int attempt = 1;; ++attempt) {
    absl::StatusOr<LlmResponse> response = inner_->Complete(request);
    if (response.ok()) {
      response->attempts = attempt;
      response->latency = absl::Now() - start;
      return response;
    }
    if (!IsRetryable(response.status())) return WithAttempts(response.status(), attempt, "");
    if (attempt >= max_attempts) {
      return WithAttempts(response.status(), attempt, "giving up");
    }
    absl::Duration wait = BackoffDelay(options_, attempt, NextUnit());
    std::optional<absl::Duration> retry_after = ExchangeFailureOf(response.status()).retry_after;
    if (retry_after && *retry_after > wait) wait = *retry_after;
    if (absl::Now() + wait >= deadline) {
      return WithAttempts(
          response.status(), attempt,
          absl::StrCat("the next attempt, in ", absl::FormatDuration(wait),
                       ", would pass the deadline of ", absl::FormatDuration(options_.deadline)));
    }
    absl::SleepFor(wait);
  }
}

}  // namespace tracespec::gateway
