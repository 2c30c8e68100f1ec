// Assembling the client stack; see gateway.h.
#include "agent/gateway/gateway.h"

#include "agent/gateway/audit_log.h"
#include "agent/gateway/audited_client.h"
#include "agent/gateway/egress_gate.h"
#include "agent/gateway/egress_policy.h"
#include "agent/gateway/fingerprint.h"
#include "common/status.h"

namespace tracespec::gateway {

absl::StatusOr<GatewayMaterial> ReadGatewayMaterial(const GatewayConfig& config) {
  GatewayMaterial material;
  material.redaction_policy = config.redaction_policy;
  material.observations = config.observations;
  for (const std::string& path : config.implementation_sources) {
    TS_ASSIGN_OR_RETURN(std::vector<NamedSource> sources, ReadJavaSources(path));
    for (NamedSource& source : sources) {
      material.implementation_sources.push_back(std::move(source));
    }
  }
  material.extra_blocked_names = config.extra_blocked_names;
  material.template_texts = config.template_texts;
  material.exempt_class_names = config.exempt_class_names;
  material.test_constants = config.test_constants;
  material.denied_keys = config.denied_keys;
  return material;
}

absl::StatusOr<std::shared_ptr<AuditLog>> OpenGatewayAuditLog(const std::string& log_path,
                                                              const std::string& key_path,
                                                              const std::string& witness_path) {
  if (log_path.empty()) {
    return absl::InvalidArgumentError("gateway: an audit log path is required");
  }
  TS_ASSIGN_OR_RETURN(std::shared_ptr<const AuditSigner> signer,
                      AuditSigner::LoadOrCreate(key_path.empty() ? DefaultAuditKeyPath()
                                                                 : key_path));
  TS_ASSIGN_OR_RETURN(std::unique_ptr<AuditLog> log,
                      AuditLog::Open(log_path, std::move(signer),
                                     witness_path.empty()   ? DefaultAuditWitnessPath(log_path)
                                     : witness_path == "none" ? ""
                                                              : witness_path));
  return std::shared_ptr<AuditLog>(std::move(log));
}

absl::StatusOr<std::unique_ptr<LlmClient>> MakeAuditedStack(
    const v1::EgressPolicy& policy, const GatewayMaterial& material, std::shared_ptr<AuditLog> log,
    const OpenAiClientOptions& endpoint, const RetryOptions& retry,
    const std::string& dry_run_dir) {
  auto fingerprints = std::make_shared<ImplementationFingerprints>(
      FingerprintOptions::FromPolicy(policy.fingerprint()));
  for (const NamedSource& source : material.implementation_sources) {
    fingerprints->AddSource(source.name, source.text);
  }
  ProtectedMaterial gated = ProtectedMaterialFrom(material.redaction_policy, material.observations);
  for (const std::string& name : material.extra_blocked_names) {
    gated.redacted_field_names.push_back(name);
  }
  gated.template_texts = material.template_texts;
  gated.exempt_class_names = material.exempt_class_names;
  gated.test_constants = material.test_constants;
  gated.denied_keys = material.denied_keys;
  TS_ASSIGN_OR_RETURN(
      EgressGate gate,
      EgressGate::Create(policy, std::move(gated),
                         fingerprints->empty() ? nullptr : std::move(fingerprints)));
  TS_ASSIGN_OR_RETURN(std::unique_ptr<OpenAiCompatibleClient> http,
                      OpenAiCompatibleClient::Create(endpoint));
  auto retrying = std::make_unique<RetryingClient>(std::move(http), retry);
  AuditedClientOptions options;
  options.dry_run_dir = dry_run_dir;
  return std::unique_ptr<LlmClient>(std::make_unique<AuditedClient>(
      std::move(retrying), std::make_shared<const EgressGate>(std::move(gate)), std::move(log),
      options));
}

absl::StatusOr<std::unique_ptr<LlmClient>> MakeGatewayClient(const GatewayConfig& config) {
  if (config.audit_log_path.empty()) {
    return absl::InvalidArgumentError("gateway: an audit log path is required");
  }
  TS_ASSIGN_OR_RETURN(v1::EgressPolicy policy, LoadEgressPolicy(config.egress_policy_path));
  TS_ASSIGN_OR_RETURN(GatewayMaterial material, ReadGatewayMaterial(config));
  TS_ASSIGN_OR_RETURN(std::shared_ptr<AuditLog> log,
                      OpenGatewayAuditLog(config.audit_log_path, config.audit_key_path,
                                          config.audit_witness_path));
  return MakeAuditedStack(policy, material, std::move(log), config.endpoint, config.retry,
                          config.dry_run_dir);
}

}  // namespace tracespec::gateway
