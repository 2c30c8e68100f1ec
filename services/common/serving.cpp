#include "services/common/serving.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/interrupt.h"
#include "grpcpp/health_check_service_interface.h"

namespace tracespec::services {

absl::StatusOr<std::unique_ptr<grpc::Server>> StartListening(grpc::Service* service,
                                                             const ListenOptions& options,
                                                             std::string* address) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(options.listen, options.credentials, &port);
  // gRPC sets SO_REUSEPORT by default: a second server on a port in use
  // would bind it too and take half of the calls.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.RegisterService(service);
  builder.SetMaxReceiveMessageSize(static_cast<int>(
      std::min<int64_t>(options.max_request_bytes, std::numeric_limits<int>::max())));
  grpc::ResourceQuota quota(options.service_name);
  quota.SetMaxThreads(options.max_threads);
  builder.SetResourceQuota(quota);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", options.listen));
  }
  *address = WithPort(options.listen, port);
  grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService();
  if (health != nullptr) {
    health->SetServingStatus(true);
    health->SetServingStatus(options.service_name, true);
  }
  return server;
}

void StopListening(grpc::Server* server) {
  grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService();
  if (health != nullptr) health->SetServingStatus(false);
  server->Shutdown();
  server->Wait();
}

grpc_connectivity_state WaitUntilReady(grpc::Channel* channel, double seconds) {
  auto deadline = std::chrono::system_clock::now() +
                  std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::duration<double>(seconds));
  grpc_connectivity_state state = channel->GetState(/*try_to_connect=*/true);
  while (state != GRPC_CHANNEL_READY) {
    if (state == GRPC_CHANNEL_TRANSIENT_FAILURE || state == GRPC_CHANNEL_SHUTDOWN ||
        !channel->WaitForStateChange(state, deadline)) {
      return state;
    }
    state = channel->GetState(/*try_to_connect=*/true);
  }
  return state;
}

grpc::Status ToGrpc(const absl::Status& status) {
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()));
}

std::string WithPort(const std::string& listen, int port) {
  size_t colon = listen.rfind(':');
  std::string host = colon == std::string::npos ? listen : listen.substr(0, colon);
  return absl::StrCat(host, ":", port);
}

sigset_t BlockStopSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

const char* WaitForStopSignal(const sigset_t& signals) {
  int signal = 0;
  sigwait(&signals, &signal);
  std::thread([signals] {
    int second = 0;
    if (sigwait(&signals, &second) == 0) RequestStop(second);
  }).detach();
  return signal == SIGINT ? "SIGINT" : "SIGTERM";
}

}  // namespace tracespec::services
