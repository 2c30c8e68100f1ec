// Assembling the client stack; see gateway.h.
#include "agent/gateway/gateway.h"

#include "agent/gateway/audit_log.h"
#include "agent/gateway/audited_client.h"
#include "agent/gateway/egress_gate.h"
#include "agent/gateway/egress_policy.h"
#include "agent/gateway/fingerprint.h"
#include "common/status.h"

namespace tracespec::gateway {

absl::StatusOr<std::unique_ptr<LlmClient>> MakeGatewayClient(const GatewayConfig& config) {
  if (config.audit_log_path.empty()) {
    return absl::InvalidArgumentError("gateway: an audit log path is required");
  }
  TS_ASSIGN_OR_RETURN(v1::EgressPolicy policy, LoadEgressPolicy(config.egress_policy_path));
  auto fingerprints = std::make_shared<ImplementationFingerprints>(
      FingerprintOptions::FromPolicy(policy.fingerprint()));
  for (const std::string& source : config.implementation_sources) {
    TS_RETURN_IF_ERROR(fingerprints->AddSourceTree(source));
  }
  ProtectedMaterial material = ProtectedMaterialFrom(config.redaction_policy, config.observations);
  for (const std::string& name : config.extra_blocked_names) {
    material.redacted_field_names.push_back(name);
  }
  material.template_texts = config.template_texts;
  material.exempt_class_names = config.exempt_class_names;
  material.test_constants = config.test_constants;
  TS_ASSIGN_OR_RETURN(
      EgressGate gate,
      EgressGate::Create(std::move(policy), std::move(material),
                         fingerprints->empty() ? nullptr : std::move(fingerprints)));
  std::string key_path =
      config.audit_key_path.empty() ? DefaultAuditKeyPath() : config.audit_key_path;
  TS_ASSIGN_OR_RETURN(std::shared_ptr<const AuditSigner> signer,
                      AuditSigner::LoadOrCreate(key_path));
  TS_ASSIGN_OR_RETURN(std::unique_ptr<AuditLog> log,
                      AuditLog::Open(config.audit_log_path, std::move(signer),
                                     config.audit_witness_path.empty()
                                         ? DefaultAuditWitnessPath(config.audit_log_path)
                                     : config.audit_witness_path == "none"
                                         ? ""
                                         : config.audit_witness_path));
  TS_ASSIGN_OR_RETURN(std::unique_ptr<OpenAiCompatibleClient> http,
                      OpenAiCompatibleClient::Create(config.endpoint));
  auto retrying = std::make_unique<RetryingClient>(std::move(http), config.retry);
  AuditedClientOptions options;
  options.dry_run_dir = config.dry_run_dir;
  return std::unique_ptr<LlmClient>(std::make_unique<AuditedClient>(
      std::move(retrying), std::make_shared<const EgressGate>(std::move(gate)),
      std::shared_ptr<AuditLog>(std::move(log)), options));
}

}  // namespace tracespec::gateway
