// The one interface every model client implements — the remote
// chat-completions client, its decorators (retries, the audited egress gate)
// and the built-in synthesizer (agent/synth) — so the refinement loop cannot
// tell them apart. Stack, innermost first:
//   OpenAiCompatibleClient (libcurl) <- RetryingClient <- AuditedClient
// Header-only (CMake target tracespec_llm_client): using it does not link
// libcurl.
#ifndef TRACESPEC_AGENT_GATEWAY_LLM_CLIENT_H_
#define TRACESPEC_AGENT_GATEWAY_LLM_CLIENT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/prompt/chat.h"
#include "agent/prompt/inputs.h"

namespace tracespec::gateway {

// What the messages were built from, for clients that answer in the process
// (the built-in synthesizer reads observations, not prose). In-process only:
// never serialised, never sent, never audited.
struct LocalInputs {
  std::shared_ptr<const prompt::PromptInputs> inputs;
  // The validator's feedback of every earlier round, oldest first.
  std::vector<prompt::ValidationFeedback> feedback;
};

struct LlmRequest {
  std::vector<prompt::ChatMessage> messages;
  // Model name; empty = the client's configured model.
  std::string model;
  // Ask for a structured answer (`response_format` of type json_schema).
  std::optional<prompt::ResponseSchema> response_schema;
  std::optional<double> temperature;
  std::optional<int64_t> seed;
  // What the request is for ("bank.Account#deposit round 1 stage 2"); goes
  // into the audit log, never over the network.
  std::string label;
  // Coverage verdicts the feedback in these messages leaves out because
  // they depend on withheld data; goes into the audit log, never over the
  // network.
  int withheld_verdicts = 0;
  // Counterexample values the feedback in these messages leaves out because
  // they change when the denied constants are substituted; audit log only.
  int withheld_values = 0;
  // Structured inputs for in-process clients; remote clients ignore it (it
  // changes no byte of EncodeRequest). Null when not given.
  std::shared_ptr<const LocalInputs> local;
};

struct TokenUsage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int64_t total_tokens = 0;
};

struct LlmResponse {
  // The assistant message's text.
  std::string text;
  // As reported by the server.
  std::string model;
  std::string finish_reason;
  TokenUsage usage;
  // Wall time of the whole exchange, retries and waits included.
  absl::Duration latency;
  // HTTP status of the answer (0 for in-process clients).
  int http_status = 0;
  // HTTP attempts it took (1 without retries).
  int attempts = 1;
  // The exact bytes received (empty for in-process clients).
  std::string raw_body;
};

class LlmClient {
 public:
  virtual ~LlmClient() = default;

  // Sends `request` and returns the answer. Errors carry the HTTP status and
  // Retry-After when there was one (see errors.h) and never contain the API
  // key.
  virtual absl::StatusOr<LlmResponse> Complete(const LlmRequest& request) = 0;

  // The URL requests go to; empty when nothing leaves the process.
  virtual std::string Destination() const = 0;

  // The exact bytes Complete() sends for `request` (empty for in-process
  // clients). Deterministic: the gate scans and digests these bytes.
  virtual absl::StatusOr<std::string> EncodeRequest(const LlmRequest& request) const = 0;

  // `request` as a run directory may keep it: unchanged, except that the
  // audited client masks (with '*') every span of a message its gate would
  // block, so a blocked secret never reaches the disk either.
  virtual absl::StatusOr<LlmRequest> ForTheRecord(const LlmRequest& request) const {
    return request;
  }
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_LLM_CLIENT_H_
