#include "services/gateway/convert.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/gateway/errors.h"

namespace tracespec::services {

v1::GatewayMaterial MaterialMessage(const gateway::GatewayMaterial& material) {
  v1::GatewayMaterial m;
  *m.mutable_redaction_policy() = material.redaction_policy;
  for (const v1::Observation& o : material.observations) *m.add_observations() = o;
  for (const gateway::NamedSource& source : material.implementation_sources) {
    v1::SourceText* s = m.add_implementation_sources();
    s->set_name(source.name);
    s->set_text(source.text);
  }
  for (const std::string& n : material.extra_blocked_names) m.add_extra_blocked_names(n);
  for (const std::string& t : material.template_texts) m.add_template_texts(t);
  for (const std::string& c : material.exempt_class_names) m.add_exempt_class_names(c);
  for (const gateway::TestClassConstants& constants : material.test_constants) {
    v1::TestClassStrings* t = m.add_test_constants();
    t->set_class_name(constants.class_name);
    for (const std::string& s : constants.strings) t->add_strings(s);
  }
  for (const auto& [bytes, keys] : material.denied_keys.texts) {
    auto rolling = material.denied_keys.rolling.find(bytes);
    for (uint64_t key : keys) {
      v1::DeniedTextKey* k = m.add_denied_text_keys();
      k->set_bytes(bytes);
      k->set_key(key);
      if (rolling == material.denied_keys.rolling.end()) continue;
      auto it = rolling->second.find(key);
      if (it != rolling->second.end()) k->set_rolling(it->second);
    }
  }
  for (uint64_t key : material.denied_keys.numbers) m.add_denied_number_keys(key);
  return m;
}

gateway::GatewayMaterial MaterialOf(const v1::GatewayMaterial& m) {
  gateway::GatewayMaterial material;
  material.redaction_policy = m.redaction_policy();
  material.observations.assign(m.observations().begin(), m.observations().end());
  for (const v1::SourceText& s : m.implementation_sources()) {
    material.implementation_sources.push_back({s.name(), s.text()});
  }
  material.extra_blocked_names.assign(m.extra_blocked_names().begin(),
                                      m.extra_blocked_names().end());
  material.template_texts.assign(m.template_texts().begin(), m.template_texts().end());
  material.exempt_class_names.assign(m.exempt_class_names().begin(),
                                     m.exempt_class_names().end());
  for (const v1::TestClassStrings& t : m.test_constants()) {
    material.test_constants.push_back(
        {t.class_name(), std::vector<std::string>(t.strings().begin(), t.strings().end())});
  }
  material.denied_keys.Add(m.denied_text_keys(), m.denied_number_keys());
  return material;
}

v1::GatewayRequest RequestMessage(const gateway::LlmRequest& request) {
  v1::GatewayRequest m;
  for (const prompt::ChatMessage& message : request.messages) {
    v1::ChatTurn* turn = m.add_messages();
    turn->set_role(prompt::RoleName(message.role));
    turn->set_content(message.content);
  }
  m.set_model(request.model);
  if (request.response_schema.has_value()) {
    m.set_has_response_schema(true);
    m.set_response_schema_name(request.response_schema->name);
    m.set_response_schema_json(request.response_schema->schema_json);
  }
  if (request.temperature.has_value()) m.set_temperature(*request.temperature);
  if (request.seed.has_value()) m.set_seed(*request.seed);
  m.set_label(request.label);
  m.set_withheld_verdicts(request.withheld_verdicts);
  m.set_withheld_values(request.withheld_values);
  return m;
}

absl::StatusOr<gateway::LlmRequest> RequestOf(const v1::GatewayRequest& m) {
  gateway::LlmRequest request;
  for (const v1::ChatTurn& turn : m.messages()) {
    prompt::ChatMessage message;
    if (turn.role() == "system") {
      message.role = prompt::Role::kSystem;
    } else if (turn.role() == "user") {
      message.role = prompt::Role::kUser;
    } else if (turn.role() == "assistant") {
      message.role = prompt::Role::kAssistant;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("message ", request.messages.size(), ": unknown role \"", turn.role(),
                       "\" (system, user or assistant)"));
    }
    message.content = turn.content();
    request.messages.push_back(std::move(message));
  }
  request.model = m.model();
  if (m.has_response_schema()) {
    request.response_schema = prompt::ResponseSchema{m.response_schema_name(),
                                                     m.response_schema_json()};
  }
  if (m.has_temperature()) request.temperature = m.temperature();
  if (m.has_seed()) request.seed = m.seed();
  request.label = m.label();
  request.withheld_verdicts = m.withheld_verdicts();
  request.withheld_values = m.withheld_values();
  return request;
}

v1::CompleteReply ReplyMessage(const gateway::LlmResponse& response) {
  v1::CompleteReply m;
  m.set_text(response.text);
  m.set_model(response.model);
  m.set_finish_reason(response.finish_reason);
  m.set_prompt_tokens(response.usage.prompt_tokens);
  m.set_completion_tokens(response.usage.completion_tokens);
  m.set_total_tokens(response.usage.total_tokens);
  m.set_latency_ms(absl::ToInt64Milliseconds(response.latency));
  m.set_http_status(response.http_status);
  m.set_attempts(response.attempts);
  m.set_raw_body(response.raw_body);
  return m;
}

gateway::LlmResponse ResponseOf(const v1::CompleteReply& m) {
  gateway::LlmResponse response;
  response.text = m.text();
  response.model = m.model();
  response.finish_reason = m.finish_reason();
  response.usage.prompt_tokens = m.prompt_tokens();
  response.usage.completion_tokens = m.completion_tokens();
  response.usage.total_tokens = m.total_tokens();
  response.latency = absl::Milliseconds(m.latency_ms());
  response.http_status = m.http_status();
  response.attempts = m.attempts();
  response.raw_body = m.raw_body();
  return response;
}

grpc::Status RefusalStatus(const absl::Status& status) {
  v1::GatewayRefusal refusal;
  refusal.set_rule(gateway::BlockedRuleOf(status));
  refusal.set_dry_run(gateway::IsDryRun(status));
  gateway::ExchangeFailure failure = gateway::ExchangeFailureOf(status);
  refusal.set_http_status(failure.http_status);
  refusal.set_transport(failure.transport);
  refusal.set_attempts(failure.attempts);
  refusal.set_response_size(failure.response_size);
  refusal.set_response_sha256(failure.response_sha256);
  if (failure.retry_after.has_value()) {
    refusal.set_retry_after_ms(absl::ToInt64Milliseconds(*failure.retry_after));
  }
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()), refusal.SerializeAsString());
}

namespace {

v1::GatewayRefusal RefusalOf(const grpc::Status& status) {
  v1::GatewayRefusal refusal;
  if (!status.error_details().empty()) refusal.ParseFromString(status.error_details());
  return refusal;
}

}  // namespace

absl::Status StatusOfRefusal(const grpc::Status& status) {
  v1::GatewayRefusal refusal = RefusalOf(status);
  absl::Status result(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
  if (refusal.dry_run()) return gateway::DryRunStatus(status.error_message());
  if (!refusal.rule().empty()) result = gateway::WithBlockedRule(result, refusal.rule());
  if (refusal.http_status() != 0 || refusal.transport() || refusal.attempts() != 0) {
    gateway::ExchangeFailure failure;
    failure.http_status = refusal.http_status();
    failure.transport = refusal.transport();
    failure.attempts = refusal.attempts();
    failure.response_size = refusal.response_size();
    failure.response_sha256 = refusal.response_sha256();
    if (refusal.has_retry_after_ms()) {
      failure.retry_after = absl::Milliseconds(refusal.retry_after_ms());
    }
    result = gateway::WithExchangeFailure(result, failure);
  }
  return result;
}

}  // namespace tracespec::services
