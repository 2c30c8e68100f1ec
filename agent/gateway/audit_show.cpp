// Readable audit records; see audit_show.h.
#include "agent/gateway/audit_show.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "rapidjson/document.h"
#include "tracespec/v1/audit.pb.h"

namespace tracespec::gateway {
namespace {

std::string Indent(absl::string_view text, absl::string_view prefix) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    absl::StrAppend(&out, prefix, line, "\n");
  }
  return out;
}

// Chat request or answer bodies as "[role] content" blocks; empty when the
// payload is neither.
std::string ChatMessages(absl::string_view payload) {
  rapidjson::Document doc;
  doc.Parse(payload.data(), payload.size());
  if (doc.HasParseError() || !doc.IsObject()) return "";
  std::string out;
  auto add = [&out](const rapidjson::Value& message) {
    if (!message.IsObject()) return;
    auto role = message.FindMember("role");
    auto content = message.FindMember("content");
    std::string role_text =
        role != message.MemberEnd() && role->value.IsString() ? role->value.GetString() : "?";
    std::string content_text =
        content != message.MemberEnd() && content->value.IsString()
            ? std::string(content->value.GetString(), content->value.GetStringLength())
            : "(no text)";
    absl::StrAppend(&out, "      [", role_text, "]\n", Indent(content_text, "        "));
  };
  auto messages = doc.FindMember("messages");
  if (messages != doc.MemberEnd() && messages->value.IsArray()) {
    auto model = doc.FindMember("model");
    if (model != doc.MemberEnd() && model->value.IsString()) {
      absl::StrAppend(&out, "      model: ", model->value.GetString(), "\n");
    }
    for (const auto& m : messages->value.GetArray()) add(m);
    if (doc.HasMember("response_format")) {
      absl::StrAppend(&out, "      (asks for a structured answer: response_format)\n");
    }
    return out;
  }
  auto choices = doc.FindMember("choices");
  if (choices != doc.MemberEnd() && choices->value.IsArray()) {
    for (const auto& choice : choices->value.GetArray()) {
      if (!choice.IsObject()) continue;
      auto message = choice.FindMember("message");
      if (message != choice.MemberEnd()) add(message->value);
    }
    return out;
  }
  return "";
}

const char* DirectionName(v1::AuditDirection d) {
  switch (d) {
    case v1::OUTBOUND: return "out";
    case v1::INBOUND: return "in ";
    case v1::AUDIT_DIRECTION_UNSPECIFIED: return "-  ";
    default: return "?  ";
  }
}

}  // namespace

std::string FormatAuditRecords(const std::vector<v1::AuditRecord>& records,
                               const AuditShowOptions& options) {
  std::string out;
  for (const v1::AuditRecord& r : records) {
    absl::StrAppend(&out, "#", r.sequence(), "  ", r.time(), "  ", DirectionName(r.direction()),
                    "  ", v1::AuditVerdict_Name(r.verdict()));
    if (!r.destination().empty()) absl::StrAppend(&out, "  ", r.destination());
    absl::StrAppend(&out, "\n");
    if (r.verdict() == v1::CHECKPOINT || r.verdict() == v1::SEAL) {
      absl::StrAppend(&out, "    signs records 1..", r.sealed_records(), ", head ", r.sealed_head(),
                      "\n    key ", r.signing_key_id(), "\n");
      if (!r.detail().empty()) absl::StrAppend(&out, "    detail: ", r.detail(), "\n");
      continue;
    }
    if (!r.label().empty()) absl::StrAppend(&out, "    for: ", r.label(), "\n");
    absl::StrAppend(&out, "    ", r.payload_size(), " bytes, sha256 ",
                    r.payload_sha256().empty() ? "-" : r.payload_sha256(), "\n");
    if (!r.rule().empty()) absl::StrAppend(&out, "    rule: ", r.rule(), "\n");
    if (!r.detail().empty()) absl::StrAppend(&out, "    detail: ", r.detail(), "\n");
    if (r.withheld_verdicts() > 0) {
      absl::StrAppend(&out, "    ", r.withheld_verdicts(),
                      " coverage verdict(s) withheld: they depend on withheld data\n");
    }
    if (r.withheld_values() > 0) {
      absl::StrAppend(&out, "    ", r.withheld_values(),
                      " counterexample value(s) withheld: they change when the denied constants "
                      "are substituted\n");
    }
    if (r.direction() == v1::INBOUND) {
      absl::StrAppend(&out, "    http ", r.http_status(), ", ", r.attempts(),
                      r.attempts() == 1 ? " attempt, " : " attempts, ", r.latency_ms(), " ms");
      if (r.prompt_tokens() > 0 || r.completion_tokens() > 0) {
        absl::StrAppend(&out, ", tokens ", r.prompt_tokens(), " in + ", r.completion_tokens(),
                        " out");
      }
      absl::StrAppend(&out, "\n    answers request sha256 ", r.request_sha256(), "\n");
    }
    if (!options.payloads) continue;
    if (r.has_payload_text()) {
      std::string chat = options.raw ? "" : ChatMessages(r.payload_text());
      absl::StrAppend(&out, "    payload:\n",
                      chat.empty() ? Indent(r.payload_text(), "      ") : chat);
    } else if (r.has_payload_binary()) {
      absl::StrAppend(&out, "    payload: ", r.payload_binary().size(),
                      " bytes, not UTF-8 text (kept in the log as base64)\n");
    } else if (r.verdict() != v1::BLOCKED && r.payload_size() > 0) {
      absl::StrAppend(&out, "    payload: not stored (egress policy audit.store_payloads)\n");
    }
  }
  return out;
}

}  // namespace tracespec::gateway
