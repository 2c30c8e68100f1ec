// `tracespec serve validator`: check::Validator behind gRPC
// (tracespec.v1.ValidatorService, proto/tracespec/v1/validator_service.proto).
//
// A fixed pool of workers, each with a validator of its own (validators are
// not thread-safe), takes the calls. At most `workers + queue` calls are
// accepted at a time (running or waiting for a worker); one more fails at
// once with RESOURCE_EXHAUSTED, so nothing queues without bound. A call's
// deadline caps the validator's time limit, and a call whose deadline passes
// (while waiting or running) fails with DEADLINE_EXCEEDED. Calls larger
// than `max_request_bytes` are refused by gRPC (RESOURCE_EXHAUSTED). The
// standard health service (grpc.health.v1) says SERVING once the workers
// are ready and NOT_SERVING while shutting down.
#ifndef TRACESPEC_SERVICES_VALIDATOR_SERVER_H_
#define TRACESPEC_SERVICES_VALIDATOR_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "services/common/tls.h"

namespace tracespec::services {

struct ValidatorServiceOptions {
  // "host:port"; port 0 picks a free one (ValidatorServer::address() says which).
  std::string listen;
  // The class path every call is checked against: ':'-separated
  // directories and jars on the server's machine.
  std::string class_path;
  int workers = 1;
  // Calls that may wait for a worker while all are busy.
  int queue = 16;
  int64_t max_request_bytes = 64 << 20;
  // Unset: plaintext. Set: TLS only (a plaintext client fails its
  // handshake), and with a client CA, mutual TLS (a client must present a
  // certificate chaining to that CA, else its handshake fails).
  std::optional<ServerTls> tls;
};

class ValidatorServer {
 public:
  // Creates the validators, binds and starts serving. Errors: options out
  // of range, a class path that does not exist, an address that cannot be
  // bound.
  static absl::StatusOr<std::unique_ptr<ValidatorServer>> Start(
      const ValidatorServiceOptions& options);
  virtual ~ValidatorServer() = default;

  // The address bound, with the port actually chosen ("127.0.0.1:41234").
  virtual const std::string& address() const = 0;
  virtual int workers() const = 0;
  // Calls accepted and not yet answered (running or waiting).
  virtual int in_flight() const = 0;
  // Stops accepting calls (health NOT_SERVING, new calls UNAVAILABLE),
  // answers every call already accepted, then stops the workers. Returns
  // when all is done. Not from a handler thread.
  virtual void Shutdown() = 0;
};

// Serves until SIGINT or SIGTERM, then shuts down as Shutdown() does and
// returns OK. `on_ready` is called once the server is serving. A second
// signal during the shutdown cuts the running solver queries short
// (common/interrupt.h: RequestStop), so that the calls still running end
// at once with what was decided. Blocks SIGINT and SIGTERM in every thread
// it starts; call it before the process starts other threads.
absl::Status ServeValidatorUntilSignal(const ValidatorServiceOptions& options,
                                       const std::function<void(const ValidatorServer&)>& on_ready);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_VALIDATOR_SERVER_H_
