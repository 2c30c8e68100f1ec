// Assembles the whole client stack the refinement loop talks to:
//   OpenAiCompatibleClient <- RetryingClient <- AuditedClient
// from an endpoint, the egress policy file, the redaction policy and
// observations (protected names and values), implementation sources (for
// fingerprints) and the audit log.
#ifndef TRACESPEC_AGENT_GATEWAY_GATEWAY_H_
#define TRACESPEC_AGENT_GATEWAY_GATEWAY_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/gateway/audit_log.h"
#include "agent/gateway/egress_gate.h"
#include "agent/gateway/fingerprint.h"
#include "agent/gateway/llm_client.h"
#include "agent/gateway/openai_client.h"
#include "agent/gateway/retrying_client.h"
#include "tracespec/v1/egress.pb.h"
#include "tracespec/v1/observation.pb.h"
#include "tracespec/v1/policy.pb.h"

namespace tracespec::gateway {

struct GatewayConfig {
  OpenAiClientOptions endpoint;
  RetryOptions retry;
  // policies/egress.textproto or the user's own.
  std::string egress_policy_path;
  // Where audit records are appended (created if missing).
  std::string audit_log_path;
  // The Ed25519 key that signs the log's checkpoints and seals (created on
  // first use); "" = DefaultAuditKeyPath().
  std::string audit_key_path;
  // Where copies of the log's signed records go (AuditLog::Open); "" =
  // DefaultAuditWitnessPath(audit_log_path), "none" = no witness.
  std::string audit_witness_path;
  // Non-empty: dry run into this directory (see AuditedClientOptions).
  std::string dry_run_dir;
  // The redaction policy the observations were recorded under.
  v1::RedactionPolicy redaction_policy;
  // All observations of the run, excluded ones included: they tell which
  // fields were redacted and which values must not leave.
  std::vector<v1::Observation> observations;
  // Implementation sources (files or directories of .java files) to
  // fingerprint; may be empty when the sources are not at hand.
  std::vector<std::string> implementation_sources;
  // Extra names that must not leave, matched like redacted field names (whole
  // identifiers, ignoring case); e.g. the original identifiers when
  // anonymising.
  std::vector<std::string> extra_blocked_names;
  // See ProtectedMaterial: fixed prompt text the name rules skip, and class
  // names the deny patterns do not apply to.
  std::vector<std::string> template_texts;
  std::vector<std::string> exempt_class_names;
  // See ProtectedMaterial: the compiled string constants of the test
  // classes whose sources may be sent.
  std::vector<TestClassConstants> test_constants;
  // See ProtectedMaterial: the keys of the values the tests read from
  // denied locations (the observe summary's).
  DeniedValueKeys denied_keys;
};

// The audited client, ready to send. Errors name the file at fault (policy,
// audit log, sources) or the missing API key variable.
absl::StatusOr<std::unique_ptr<LlmClient>> MakeGatewayClient(const GatewayConfig& config);

// How a run gets its model client from its GatewayConfig: MakeGatewayClient
// in process, or a client of a remote gateway (services/gateway/client.h),
// which takes only the config's protected material.
using GatewayClientFactory =
    std::function<absl::StatusOr<std::unique_ptr<LlmClient>>(const GatewayConfig&)>;

// The pieces MakeGatewayClient is made of, for a gateway that serves many
// runs from one process (services/gateway): one policy and one audit log
// for all, a gate per run from that run's protected material.

// A run's protected material (GatewayConfig's) with the implementation
// sources as texts rather than paths.
struct GatewayMaterial {
  v1::RedactionPolicy redaction_policy;
  std::vector<v1::Observation> observations;
  std::vector<NamedSource> implementation_sources;
  std::vector<std::string> extra_blocked_names;
  std::vector<std::string> template_texts;
  std::vector<std::string> exempt_class_names;
  std::vector<TestClassConstants> test_constants;
  DeniedValueKeys denied_keys;
};

// `config`'s material, its implementation sources read (ReadJavaSources).
absl::StatusOr<GatewayMaterial> ReadGatewayMaterial(const GatewayConfig& config);

// Opens the audit log at `log_path`, signed with the key at `key_path`
// ("" = DefaultAuditKeyPath(), created on first use), its witness as
// GatewayConfig::audit_witness_path says.
absl::StatusOr<std::shared_ptr<AuditLog>> OpenGatewayAuditLog(const std::string& log_path,
                                                              const std::string& key_path,
                                                              const std::string& witness_path);

// The stack OpenAiCompatibleClient <- RetryingClient <- AuditedClient with a
// gate from `policy` and `material`, appending to `log`; a dry run into
// `dry_run_dir` when it is not empty.
absl::StatusOr<std::unique_ptr<LlmClient>> MakeAuditedStack(
    const v1::EgressPolicy& policy, const GatewayMaterial& material, std::shared_ptr<AuditLog> log,
    const OpenAiClientOptions& endpoint, const RetryOptions& retry,
    const std::string& dry_run_dir);

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_GATEWAY_H_
