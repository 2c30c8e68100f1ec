// The chat-completions wire format; see chat_wire.h.
#include "agent/gateway/chat_wire.h"

#include "absl/strings/str_cat.h"
#include "rapidjson/document.h"
#include "rapidjson/error/en.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace tracespec::gateway::internal {

absl::StatusOr<std::string> EncodeChatRequest(const LlmRequest& request, const std::string& model) {
  if (model.empty()) return absl::InvalidArgumentError("chat request: no model given");
  if (request.messages.empty()) return absl::InvalidArgumentError("chat request: no messages");
  rapidjson::Document schema;
  if (request.response_schema) {
    const std::string& text = request.response_schema->schema_json;
    schema.Parse(text.data(), text.size());
    if (schema.HasParseError() || !schema.IsObject()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "response schema \"", request.response_schema->name, "\" is not a JSON object"));
    }
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto string = [&w](const std::string& s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  };
  w.StartObject();
  w.Key("model");
  string(model);
  w.Key("messages");
  w.StartArray();
  for (const prompt::ChatMessage& m : request.messages) {
    w.StartObject();
    w.Key("role");
    w.String(prompt::RoleName(m.role));
    w.Key("content");
    string(m.content);
    w.EndObject();
  }
  w.EndArray();
  if (request.temperature) {
    w.Key("temperature");
    w.Double(*request.temperature);
  }
  if (request.seed) {
    w.Key("seed");
    w.Int64(*request.seed);
  }
  if (request.response_schema) {
    w.Key("response_format");
    w.StartObject();
    w.Key("type");
    w.String("json_schema");
    w.Key("json_schema");
    w.StartObject();
    w.Key("name");
    string(request.response_schema->name);
    w.Key("strict");
    w.Bool(true);
    w.Key("schema");
    schema.Accept(w);
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

absl::StatusOr<LlmResponse> DecodeChatResponse(absl::string_view body, const std::string& where) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError()) {
    return absl::DataLossError(absl::StrCat(where, ": the answer is not JSON (",
                                            rapidjson::GetParseError_En(doc.GetParseError()),
                                            " at byte ", doc.GetErrorOffset(), ")"));
  }
  if (!doc.IsObject()) {
    return absl::DataLossError(absl::StrCat(where, ": the answer is not a JSON object"));
  }
  LlmResponse response;
  auto text_of = [](const rapidjson::Value& object, const char* key) -> std::string {
    auto it = object.FindMember(key);
    if (it == object.MemberEnd() || !it->value.IsString()) return "";
    return std::string(it->value.GetString(), it->value.GetStringLength());
  };
  response.model = text_of(doc, "model");
  auto choices = doc.FindMember("choices");
  if (choices == doc.MemberEnd() || !choices->value.IsArray() || choices->value.Empty() ||
      !choices->value[0].IsObject()) {
    return absl::DataLossError(absl::StrCat(where, ": the answer has no choices"));
  }
  const rapidjson::Value& choice = choices->value[0];
  response.finish_reason = text_of(choice, "finish_reason");
  auto message = choice.FindMember("message");
  if (message == choice.MemberEnd() || !message->value.IsObject()) {
    return absl::DataLossError(absl::StrCat(where, ": the answer's first choice has no message"));
  }
  auto content = message->value.FindMember("content");
  if (content == message->value.MemberEnd() || !content->value.IsString()) {
    std::string refusal = text_of(message->value, "refusal");
    if (!refusal.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat(where, ": the model refused: ", refusal.substr(0, 300)));
    }
    return absl::DataLossError(absl::StrCat(where, ": the answer's message has no text content"));
  }
  response.text.assign(content->value.GetString(), content->value.GetStringLength());
  auto usage = doc.FindMember("usage");
  if (usage != doc.MemberEnd() && usage->value.IsObject()) {
    auto number = [&usage](const char* key) -> int64_t {
      auto it = usage->value.FindMember(key);
      return it != usage->value.MemberEnd() && it->value.IsInt64() ? it->value.GetInt64() : 0;
    };
    response.usage.prompt_tokens = number("prompt_tokens");
    response.usage.completion_tokens = number("completion_tokens");
    response.usage.total_tokens = number("total_tokens");
  }
  return response;
}

std::string ErrorExcerpt(absl::string_view body, size_t limit) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  std::string text;
  if (!doc.HasParseError() && doc.IsObject()) {
    auto error = doc.FindMember("error");
    if (error != doc.MemberEnd()) {
      if (error->value.IsString()) {
        text = error->value.GetString();
      } else if (error->value.IsObject()) {
        auto message = error->value.FindMember("message");
        if (message != error->value.MemberEnd() && message->value.IsString()) {
          text = message->value.GetString();
        }
      }
    }
  }
  if (text.empty()) text = std::string(body);
  std::string out;
  for (unsigned char c : text) {
    if (out.size() >= limit) {
      out += "...";
      break;
    }
    out += (c >= 0x20 && c < 0x7F) ? static_cast<char>(c) : ' ';
  }
  return out;
}

}  // namespace tracespec::gateway::internal
