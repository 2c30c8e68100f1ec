// Retries a client's failed exchanges: exponential backoff with seeded
// jitter on transport errors and HTTP 408, 409, 429 and 5xx, honouring the
// server's Retry-After, up to a number of attempts and an overall deadline.
#ifndef TRACESPEC_AGENT_GATEWAY_RETRYING_CLIENT_H_
#define TRACESPEC_AGENT_GATEWAY_RETRYING_CLIENT_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <random>

#include "absl/time/time.h"
#include "agent/gateway/llm_client.h"

namespace tracespec::gateway {

struct RetryOptions {
  // Attempts in all, the first included.
  int max_attempts = 4;
  absl::Duration initial_backoff = absl::Milliseconds(500);
  double multiplier = 2.0;
  absl::Duration max_backoff = absl::Seconds(30);
  // Budget for the whole call: retrying stops when the next wait would
  // reach it (a running attempt is bounded by the inner client's timeout).
  absl::Duration deadline = absl::Minutes(5);
  // Seed of the jitter, so a run's waits are reproducible.
  uint64_t jitter_seed = 1;
};

// The wait before retry number `retry` (1 = before the second attempt):
// min(max_backoff, initial_backoff * multiplier^(retry-1)) scaled by a
// jitter factor in [0.5, 1) given as `unit` in [0, 1).
absl::Duration BackoffDelay(const RetryOptions& options, int retry, double unit);

class RetryingClient : public LlmClient {
 public:
  RetryingClient(std::unique_ptr<LlmClient> inner, RetryOptions options);

  // The answer of the first successful attempt (with `attempts` and the
  // total `latency`), or the last error with " (after N attempts)" and the
  // reason retrying stopped. A Retry-After longer than the computed backoff
  // replaces it.
  absl::StatusOr<LlmResponse> Complete(const LlmRequest& request) override;
  std::string Destination() const override { return inner_->Destination(); }
  absl::StatusOr<std::string> EncodeRequest(const LlmRequest& request) const override {
    return inner_->EncodeRequest(request);
  }

 private:
  double NextUnit();

  std::unique_ptr<LlmClient> inner_;
  RetryOptions options_;
  std::mutex mutex_;
  std::mt19937_64 random_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_RETRYING_CLIENT_H_
