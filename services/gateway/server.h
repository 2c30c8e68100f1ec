// `tracespec serve gateway`: the egress gate behind gRPC
// (tracespec.v1.GatewayService, proto/tracespec/v1/gateway_service.proto).
//
// The one process that talks to the model: it holds the endpoint (URL,
// model, API key variable), the egress policy with its secret rules, the
// audit log with its signing key and witness, and the dry-run directory.
// A client opens a session with a run's protected material; the session's
// stack is gateway::MakeAuditedStack over the gateway's policy and its one
// audit log, so every session's records are in that log, in order. At
// most `max_sessions` sessions are open (one more: RESOURCE_EXHAUSTED) and
// at most `max_calls` calls run at a time (one more: RESOURCE_EXHAUSTED);
// calls larger than `max_request_bytes` are refused by gRPC. The standard
// health service says SERVING once ready.
#ifndef TRACESPEC_SERVICES_GATEWAY_SERVER_H_
#define TRACESPEC_SERVICES_GATEWAY_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "agent/gateway/openai_client.h"
#include "agent/gateway/retrying_client.h"
#include "services/common/tls.h"

namespace tracespec::services {

struct GatewayServiceOptions {
  // "host:port"; port 0 picks a free one (GatewayServer::address()).
  std::string listen;
  // The model endpoint; its API key is read from the environment variable
  // endpoint.api_key_env of this process.
  gateway::OpenAiClientOptions endpoint;
  gateway::RetryOptions retry;
  std::string egress_policy_path;
  // As gateway::GatewayConfig's audit_log_path, audit_key_path and
  // audit_witness_path.
  std::string audit_log_path;
  std::string audit_key_path;
  std::string audit_witness_path;
  // Non-empty: a dry run, every allowed request body written here.
  std::string dry_run_dir;
  // Unset: plaintext. Set: TLS only (a plaintext client fails its
  // handshake), and with a client CA, mutual TLS (a client must present a
  // certificate that chains to it).
  std::optional<ServerTls> tls;
  int max_sessions = 64;
  int max_calls = 16;
  int64_t max_request_bytes = 64 << 20;
};

class GatewayServer {
 public:
  // Loads the policy, checks the endpoint (and reads its API key), opens
  // the audit log, binds and starts serving. Errors name the file at fault
  // (InvalidArgument, NotFound, DataLoss, FailedPrecondition as the policy
  // and log readers say), a missing API key variable, or an address that
  // cannot be bound (Unavailable).
  static absl::StatusOr<std::unique_ptr<GatewayServer>> Start(const GatewayServiceOptions& options);
  virtual ~GatewayServer() = default;

  // The address bound, with the port actually chosen.
  virtual const std::string& address() const = 0;
  // The URL requests go to.
  virtual const std::string& destination() const = 0;
  virtual int open_sessions() const = 0;
  // Stops accepting calls, answers those in progress, seals the audit log.
  // Not from a handler thread.
  virtual void Shutdown() = 0;
};

// Serves until SIGINT or SIGTERM, then shuts down as Shutdown() does and
// returns OK. `on_ready` is called once the server is serving. Call it
// before the process starts other threads.
absl::Status ServeGatewayUntilSignal(const GatewayServiceOptions& options,
                                     const std::function<void(const GatewayServer&)>& on_ready);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_GATEWAY_SERVER_H_
