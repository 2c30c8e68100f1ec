// A client for OpenAI-compatible chat-completions endpoints (OpenAI, vLLM,
// llama.cpp server, Ollama, ...) over libcurl. One HTTP attempt per call:
// retries belong to RetryingClient, policy and audit to AuditedClient.
#ifndef TRACESPEC_AGENT_GATEWAY_OPENAI_CLIENT_H_
#define TRACESPEC_AGENT_GATEWAY_OPENAI_CLIENT_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/gateway/llm_client.h"

namespace tracespec::gateway {

struct OpenAiClientOptions {
  // The API root, e.g. "https://api.openai.com/v1"; requests go to
  // base_url + "/chat/completions" (a base URL that already ends in
  // "/chat/completions" is used as it is).
  std::string base_url;
  std::string model;
  // Name of the environment variable holding the API key, sent as
  // "Authorization: Bearer ..."; empty = no key (local servers). The key is
  // read once, kept in memory, and never logged, audited or put in an error.
  std::string api_key_env;
  absl::Duration connect_timeout = absl::Seconds(10);
  // Limit for one whole attempt (connect, send, wait, receive).
  absl::Duration total_timeout = absl::Seconds(120);
  // Proxy URL; empty = none (proxy environment variables are ignored, so
  // the destination the gate checks is where the bytes go).
  std::string proxy;
  // CA bundle for https; empty = the system's.
  std::string ca_file;
  // Larger answers are an error.
  size_t max_response_bytes = 8 << 20;
};

class OpenAiCompatibleClient : public LlmClient {
 public:
  // Checks the options and reads the API key; errors name the variable,
  // never its value.
  static absl::StatusOr<std::unique_ptr<OpenAiCompatibleClient>> Create(
      OpenAiClientOptions options);

  // One POST. Redirects are not followed. Errors: transport failures and
  // timeouts (Unavailable / DeadlineExceeded), HTTP errors (code by
  // StatusCodeForHttp, with the server's message), answers that are not
  // chat completions (DataLoss); all carry an ExchangeFailure.
  absl::StatusOr<LlmResponse> Complete(const LlmRequest& request) override;
  std::string Destination() const override { return url_; }
  absl::StatusOr<std::string> EncodeRequest(const LlmRequest& request) const override;

 private:
  OpenAiCompatibleClient(OpenAiClientOptions options, std::string url, std::string api_key)
      : options_(std::move(options)), url_(std::move(url)), api_key_(std::move(api_key)) {}
  // Removes the API key from text that came from the server.
  std::string Scrub(std::string text) const;

  OpenAiClientOptions options_;
  std::string url_;
  std::string api_key_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_OPENAI_CLIENT_H_
