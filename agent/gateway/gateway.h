// Assembles the whole client stack the refinement loop talks to:
//   OpenAiCompatibleClient <- RetryingClient <- AuditedClient
// from an endpoint, the egress policy file, the redaction policy and
// observations (protected names and values), implementation sources (for
// fingerprints) and the audit log.
#ifndef TRACESPEC_AGENT_GATEWAY_GATEWAY_H_
#define TRACESPEC_AGENT_GATEWAY_GATEWAY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/gateway/egress_gate.h"
#include "agent/gateway/llm_client.h"
#include "agent/gateway/openai_client.h"
#include "agent/gateway/retrying_client.h"
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
};

// The audited client, ready to send. Errors name the file at fault (policy,
// audit log, sources) or the missing API key variable.
absl::StatusOr<std::unique_ptr<LlmClient>> MakeGatewayClient(const GatewayConfig& config);

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_GATEWAY_H_
