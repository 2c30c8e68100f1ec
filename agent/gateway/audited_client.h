// The egress gate in front of every send: for each request it encodes the
// exact body, lets the EgressGate judge it, appends an outbound audit record
// (ALLOWED, BLOCKED or DRY_RUN) before anything is sent, and an inbound
// record (RECEIVED or FAILED) after the exchange. A blocked request never
// reaches the inner client; if the audit record cannot be written, nothing
// is sent either.
#ifndef TRACESPEC_AGENT_GATEWAY_AUDITED_CLIENT_H_
#define TRACESPEC_AGENT_GATEWAY_AUDITED_CLIENT_H_

#include <memory>
#include <string>

#include "agent/gateway/audit_log.h"
#include "agent/gateway/egress_gate.h"
#include "agent/gateway/llm_client.h"

namespace tracespec::gateway {

struct AuditedClientOptions {
  // Dry run: write each allowed request body to
  // <dry_run_dir>/request-<audit sequence>.json and send nothing; Complete
  // then returns a status for which IsDryRun() holds.
  std::string dry_run_dir;
};

class AuditedClient : public LlmClient {
 public:
  AuditedClient(std::unique_ptr<LlmClient> inner, std::shared_ptr<const EgressGate> gate,
                std::shared_ptr<AuditLog> log, AuditedClientOptions options = {});

  // Blocked: PermissionDenied naming the rule and where it matched (never
  // the matched text); BlockedRuleOf (errors.h) gives the rule. Stores
  // payloads in the log when the policy's audit.store_payloads says so
  // (never blocked ones).
  absl::StatusOr<LlmResponse> Complete(const LlmRequest& request) override;
  std::string Destination() const override { return inner_->Destination(); }
  absl::StatusOr<std::string> EncodeRequest(const LlmRequest& request) const override {
    return inner_->EncodeRequest(request);
  }
  // Masks, in the messages' contents, every span the gate finds, until it
  // finds none it can place in a message.
  absl::StatusOr<LlmRequest> ForTheRecord(const LlmRequest& request) const override;

 private:
  std::unique_ptr<LlmClient> inner_;
  std::shared_ptr<const EgressGate> gate_;
  std::shared_ptr<AuditLog> log_;
  AuditedClientOptions options_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_AUDITED_CLIENT_H_
