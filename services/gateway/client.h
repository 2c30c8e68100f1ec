// The caller's side of the gateway service: a gateway::LlmClient whose
// calls go to `tracespec serve gateway`, so that the refinement loop
// cannot tell it from the audited stack built in process. The client holds
// no egress policy, API key, audit log or signing key: it opens a session
// with the run's protected material (the implementation sources as texts,
// since the gateway may run on another machine) and the gateway's gate
// judges every request. A blocked request comes back as PermissionDenied
// naming the rule (gateway::BlockedRuleOf gives it), a dry run as
// gateway::IsDryRun, a failed exchange with its gateway::ExchangeFailure, as
// in process. The session is closed when the client is destroyed.
#ifndef TRACESPEC_SERVICES_GATEWAY_CLIENT_H_
#define TRACESPEC_SERVICES_GATEWAY_CLIENT_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "agent/gateway/gateway.h"
#include "agent/gateway/llm_client.h"
#include "services/common/tls.h"

namespace tracespec::services {

struct RemoteGatewayOptions {
  // "HOST:PORT", or a gRPC target ("dns:///gateway:7412").
  std::string gateway;
  // How long to wait for the gateway to accept a connection.
  double connect_seconds = 10;
  // Unset: plaintext. Set: TLS; the gateway's certificate must chain to
  // `server_ca_pem` and name the host of `gateway` among its subject
  // alternative names, and `identity` is presented when the gateway asks
  // for one (mutual TLS).
  std::optional<ClientTls> tls;
};

// Connects and opens a session with `material`. UNAVAILABLE naming the
// address when no gateway answers within connect_seconds (under TLS with
// the reason the handshake failed: services::TlsHandshakeProblem); the gateway's
// own errors (INVALID_ARGUMENT for material it refuses, RESOURCE_EXHAUSTED)
// as it gives them.
absl::StatusOr<std::unique_ptr<gateway::LlmClient>> ConnectGateway(
    const RemoteGatewayOptions& options, const gateway::GatewayMaterial& material);

// Fails as ConnectGateway does when no gateway answers, without opening a
// session: for callers that check before they write anything.
absl::Status ProbeGateway(const RemoteGatewayOptions& options);

// A run's model client from its GatewayConfig: the config's protected
// material (its implementation sources read here, on the caller's machine)
// in a session of the gateway; the config's endpoint, policy, log, key and
// dry-run fields are not used (they are the gateway's).
gateway::GatewayClientFactory RemoteGatewayFactory(const RemoteGatewayOptions& options);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_GATEWAY_CLIENT_H_
