// The shape of a chat with a model: messages with roles, and the JSON schema
// an answer should follow. The prompt builder produces these; the gateway
// sends them.
#ifndef TRACESPEC_AGENT_PROMPT_CHAT_H_
#define TRACESPEC_AGENT_PROMPT_CHAT_H_

#include <string>

namespace tracespec::prompt {

enum class Role { kSystem, kUser, kAssistant };

// "system", "user", "assistant" (the chat-completions spelling).
const char* RoleName(Role role);

struct ChatMessage {
  Role role = Role::kUser;
  std::string content;
};

// A JSON Schema the answer must follow (sent as the `response_format` of a
// chat-completions request).
struct ResponseSchema {
  // Schema name, [a-zA-Z0-9_-]+.
  std::string name;
  // The schema itself, a JSON object.
  std::string schema_json;
};

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_CHAT_H_
