// What every `tracespec serve <stage>` server does the same way: statuses
// across the wire, the address actually bound, and stopping on SIGINT or
// SIGTERM.
#ifndef TRACESPEC_SERVICES_COMMON_SERVING_H_
#define TRACESPEC_SERVICES_COMMON_SERVING_H_

#include <signal.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"

namespace tracespec::services {

// How a served stage listens.
struct ListenOptions {
  // "host:port"; port 0 picks a free one.
  std::string listen;
  std::shared_ptr<grpc::ServerCredentials> credentials;
  int64_t max_request_bytes = 64 << 20;
  // Handler threads at most (grpc::ResourceQuota).
  int max_threads = 16;
  // The service's full name for the health service ("tracespec.v1.X").
  std::string service_name;
};

// Binds `service` as `options` say, with the standard health service
// SERVING for "" and the service's name, SO_REUSEPORT off (a port in use
// is an error, not a second server sharing it). Sets `address` to the
// address bound, with the port chosen. Unavailable when it cannot listen.
absl::StatusOr<std::unique_ptr<grpc::Server>> StartListening(grpc::Service* service,
                                                             const ListenOptions& options,
                                                             std::string* address);

// Health NOT_SERVING, new calls refused, returns once the calls in
// progress are answered.
void StopListening(grpc::Server* server);

// Connects `channel` and waits until it is READY, at most `seconds`.
// Returns the last state: READY, or the one it gave up in
// (TRANSIENT_FAILURE at once when every address refused or failed).
grpc_connectivity_state WaitUntilReady(grpc::Channel* channel, double seconds);

// absl's canonical codes are gRPC's, number for number.
grpc::Status ToGrpc(const absl::Status& status);

// "127.0.0.1:0" bound on port 41234 -> "127.0.0.1:41234".
std::string WithPort(const std::string& listen, int port);

// Blocks SIGINT and SIGTERM in this thread and the threads it starts later,
// so that WaitForStopSignal takes them; call it before starting threads.
sigset_t BlockStopSignals();

// Waits for SIGINT or SIGTERM and returns its name ("SIGINT"). From then
// on a second signal sets the process-wide stop flag (common/interrupt.h:
// RequestStop), which cuts running work short.
const char* WaitForStopSignal(const sigset_t& signals);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_COMMON_SERVING_H_
