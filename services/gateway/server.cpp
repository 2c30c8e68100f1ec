#include "services/gateway/server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "agent/gateway/audit_log.h"
#include "agent/gateway/egress_policy.h"
#include "agent/gateway/gateway.h"
#include "common/log.h"
#include "services/common/serving.h"
#include "services/gateway/convert.h"
#include "tracespec/v1/gateway_service.grpc.pb.h"

namespace tracespec::services {
namespace {

constexpr char kServiceName[] = "tracespec.v1.GatewayService";

// One client's stack; its calls take turns (the stack is one client's).
struct Session {
  std::mutex mutex;
  std::unique_ptr<gateway::LlmClient> client;
};

// 128 random bits, hex: a session cannot be guessed by another client.
std::string NewSessionId() {
  static std::mutex mutex;
  static std::random_device device;
  std::lock_guard<std::mutex> lock(mutex);
  std::string id;
  for (int i = 0; i < 4; ++i) absl::StrAppendFormat(&id, "%08x", device());
  return id;
}

// Counts a call in for its lifetime; `admitted` is false when `limit` calls
// were already running.
class CallSlot {
 public:
  CallSlot(std::atomic<int>* running, int limit) : running_(running) {
    admitted_ = running_->fetch_add(1) < limit;
  }
  ~CallSlot() { running_->fetch_sub(1); }
  bool admitted() const { return admitted_; }

 private:
  std::atomic<int>* running_;
  bool admitted_ = false;
};

class Service final : public v1::GatewayService::Service {
 public:
  Service(const GatewayServiceOptions& options, v1::EgressPolicy policy,
          std::shared_ptr<gateway::AuditLog> log, std::string destination)
      : options_(options), policy_(std::move(policy)), log_(std::move(log)),
        destination_(std::move(destination)) {}

  grpc::Status OpenSession(grpc::ServerContext*, const v1::OpenSessionCall* call,
                           v1::OpenSessionReply* reply) override {
    CallSlot slot(&running_, options_.max_calls);
    if (!slot.admitted()) return Busy();
    absl::StatusOr<std::unique_ptr<gateway::LlmClient>> client =
        gateway::MakeAuditedStack(policy_, MaterialOf(call->material()), log_, options_.endpoint,
                                  options_.retry, options_.dry_run_dir);
    if (!client.ok()) return ToGrpc(absl::InvalidArgumentError(client.status().message()));
    auto session = std::make_shared<Session>();
    session->client = *std::move(client);
    std::string id = NewSessionId();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (static_cast<int>(sessions_.size()) >= options_.max_sessions) {
        return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                            absl::StrCat("all ", options_.max_sessions,
                                         " sessions of the gateway are open; close one or try "
                                         "again later"));
      }
      sessions_[id] = std::move(session);
    }
    reply->set_session(id);
    reply->set_destination(destination_);
    return grpc::Status::OK;
  }

  grpc::Status Complete(grpc::ServerContext*, const v1::SessionCall* call,
                        v1::CompleteReply* reply) override {
    return OnSession(*call, [&](gateway::LlmClient* client, const gateway::LlmRequest& request) {
      absl::StatusOr<gateway::LlmResponse> response = client->Complete(request);
      if (!response.ok()) return RefusalStatus(response.status());
      *reply = ReplyMessage(*response);
      return grpc::Status::OK;
    });
  }

  grpc::Status Encode(grpc::ServerContext*, const v1::SessionCall* call,
                      v1::EncodeReply* reply) override {
    return OnSession(*call, [&](gateway::LlmClient* client, const gateway::LlmRequest& request) {
      absl::StatusOr<std::string> body = client->EncodeRequest(request);
      if (!body.ok()) return ToGrpc(body.status());
      absl::StatusOr<gateway::LlmRequest> masked = client->ForTheRecord(request);
      if (!masked.ok()) return ToGrpc(masked.status());
      reply->set_body(*std::move(body));
      for (const prompt::ChatMessage& message : masked->messages) {
        reply->add_masked_contents(message.content);
      }
      return grpc::Status::OK;
    });
  }

  grpc::Status CloseSession(grpc::ServerContext*, const v1::CloseSessionCall* call,
                            v1::CloseSessionReply*) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sessions_.erase(call->session()) == 0) return UnknownSession();
    return grpc::Status::OK;
  }

  int open_sessions() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(sessions_.size());
  }

 private:
  // Runs `work` on the call's session and request, admitted and in turn
  // with the session's other calls.
  grpc::Status OnSession(
      const v1::SessionCall& call,
      const std::function<grpc::Status(gateway::LlmClient*, const gateway::LlmRequest&)>& work) {
    CallSlot slot(&running_, options_.max_calls);
    if (!slot.admitted()) return Busy();
    std::shared_ptr<Session> session = Find(call.session());
    if (session == nullptr) return UnknownSession();
    absl::StatusOr<gateway::LlmRequest> request = RequestOf(call.request());
    if (!request.ok()) return ToGrpc(request.status());
    std::lock_guard<std::mutex> lock(session->mutex);
    return work(session->client.get(), *request);
  }

  std::shared_ptr<Session> Find(const std::string& id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sessions_.find(id);
    return it == sessions_.end() ? nullptr : it->second;
  }

  grpc::Status Busy() const {
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        absl::StrCat("the gateway runs ", options_.max_calls,
                                     " calls already; try again later"));
  }

  static grpc::Status UnknownSession() {
    return grpc::Status(grpc::StatusCode::NOT_FOUND,
                        "no such gateway session (closed, or the gateway restarted): open one");
  }

  const GatewayServiceOptions& options_;
  const v1::EgressPolicy policy_;
  std::shared_ptr<gateway::AuditLog> log_;
  const std::string destination_;
  std::atomic<int> running_{0};
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Session>> sessions_;
};

class ServerImpl final : public GatewayServer {
 public:
  ServerImpl(const GatewayServiceOptions& options, v1::EgressPolicy policy,
             std::shared_ptr<gateway::AuditLog> log, std::string destination)
      : options_(options), log_(log), destination_(destination),
        service_(options_, std::move(policy), std::move(log), std::move(destination)) {}

  absl::Status Bind() {
    ListenOptions listen;
    listen.listen = options_.listen;
    listen.credentials = ServerCredentialsOf(options_.tls);
    listen.max_request_bytes = options_.max_request_bytes;
    // Every admitted call, the refusals and the health checks.
    listen.max_threads = 2 * options_.max_calls + 8;
    listen.service_name = kServiceName;
    absl::StatusOr<std::unique_ptr<grpc::Server>> server =
        StartListening(&service_, listen, &address_);
    if (!server.ok()) return server.status();
    server_ = *std::move(server);
    return absl::OkStatus();
  }

  const std::string& address() const override { return address_; }
  const std::string& destination() const override { return destination_; }
  int open_sessions() const override { return service_.open_sessions(); }

  void Shutdown() override {
    if (server_ == nullptr) return;
    StopListening(server_.get());
    server_.reset();
    absl::StatusOr<v1::AuditRecord> sealed = log_->Seal();
    if (!sealed.ok()) Warn(absl::StrCat("gateway service: ", sealed.status().message()));
  }

  ~ServerImpl() override { Shutdown(); }

 private:
  GatewayServiceOptions options_;
  std::shared_ptr<gateway::AuditLog> log_;
  std::string destination_;
  Service service_;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<GatewayServer>> GatewayServer::Start(
    const GatewayServiceOptions& options) {
  if (options.listen.empty()) return absl::InvalidArgumentError("--listen is empty");
  if (options.max_sessions < 1 || options.max_calls < 1) {
    return absl::InvalidArgumentError("--max-sessions and --max-calls must be at least 1");
  }
  absl::StatusOr<v1::EgressPolicy> policy = gateway::LoadEgressPolicy(options.egress_policy_path);
  if (!policy.ok()) return policy.status();
  // The endpoint is checked (and its API key read) once before anything
  // listens; each session makes its own client from the same options.
  absl::StatusOr<std::unique_ptr<gateway::OpenAiCompatibleClient>> endpoint =
      gateway::OpenAiCompatibleClient::Create(options.endpoint);
  if (!endpoint.ok()) return endpoint.status();
  absl::StatusOr<std::shared_ptr<gateway::AuditLog>> log = gateway::OpenGatewayAuditLog(
      options.audit_log_path, options.audit_key_path, options.audit_witness_path);
  if (!log.ok()) return log.status();
  auto server = std::make_unique<ServerImpl>(options, *std::move(policy), *std::move(log),
                                             (*endpoint)->Destination());
  absl::Status bound = server->Bind();
  if (!bound.ok()) return bound;
  return server;
}

absl::Status ServeGatewayUntilSignal(const GatewayServiceOptions& options,
                                     const std::function<void(const GatewayServer&)>& on_ready) {
  sigset_t signals = BlockStopSignals();
  absl::StatusOr<std::unique_ptr<GatewayServer>> server = GatewayServer::Start(options);
  if (!server.ok()) return server.status();
  on_ready(**server);
  const char* signal = WaitForStopSignal(signals);
  Info(absl::StrCat("gateway service: ", signal, ": answering the calls in progress, then "
                    "sealing the audit log"));
  (*server)->Shutdown();
  Info("gateway service: stopped");
  return absl::OkStatus();
}

}  // namespace tracespec::services
