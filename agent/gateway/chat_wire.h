// Internal: the chat-completions wire format (JSON bodies of requests and
// answers). Private to tracespec_gateway; RapidJSON stays in the .cpp.
#ifndef TRACESPEC_AGENT_GATEWAY_CHAT_WIRE_H_
#define TRACESPEC_AGENT_GATEWAY_CHAT_WIRE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent/gateway/llm_client.h"

namespace tracespec::gateway::internal {

// The request body: model, messages, and — when set — temperature, seed and
// a json_schema response_format (strict). Keys in a fixed order, so equal
// requests give equal bytes.
absl::StatusOr<std::string> EncodeChatRequest(const LlmRequest& request, const std::string& model);

// Reads text, model, finish reason and token usage from an answer body.
// `where` names the endpoint in errors. A body that is not JSON, has no
// choices or no message content is a DataLoss error.
absl::StatusOr<LlmResponse> DecodeChatResponse(absl::string_view body, const std::string& where);

// The server's own error message from an error body ({"error":{"message":
// ...}}), or the body's first printable characters; at most `limit` bytes.
std::string ErrorExcerpt(absl::string_view body, size_t limit);

}  // namespace tracespec::gateway::internal

#endif  // TRACESPEC_AGENT_GATEWAY_CHAT_WIRE_H_
