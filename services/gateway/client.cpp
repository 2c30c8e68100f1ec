#include "services/gateway/client.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "services/common/serving.h"
#include "services/gateway/convert.h"
#include "tracespec/v1/gateway_service.grpc.pb.h"

namespace tracespec::services {
namespace {

// A problem of the gateway itself (unknown session, the gateway gone), not
// of the model's exchange: named as the gateway's.
absl::Status GatewayError(const grpc::Status& status, const std::string& target) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      absl::StrCat("gateway at ", target, ": ", status.error_message()));
}

class RemoteGatewayClient final : public gateway::LlmClient {
 public:
  RemoteGatewayClient(std::string target, std::shared_ptr<grpc::Channel> channel,
                      std::string session, std::string destination)
      : target_(std::move(target)), stub_(v1::GatewayService::NewStub(channel)),
        session_(std::move(session)), destination_(std::move(destination)) {}

  ~RemoteGatewayClient() override {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    v1::CloseSessionCall call;
    call.set_session(session_);
    v1::CloseSessionReply reply;
    stub_->CloseSession(&context, call, &reply);  // best effort: the gateway may be gone
  }

  absl::StatusOr<gateway::LlmResponse> Complete(const gateway::LlmRequest& request) override {
    grpc::ClientContext context;
    v1::CompleteReply reply;
    grpc::Status status = stub_->Complete(&context, CallOf(request), &reply);
    if (!status.ok()) {
      // Refusals and failed exchanges carry their details.
      if (status.error_details().empty()) return GatewayError(status, target_);
      return StatusOfRefusal(status);
    }
    return ResponseOf(reply);
  }

  std::string Destination() const override { return destination_; }

  absl::StatusOr<std::string> EncodeRequest(const gateway::LlmRequest& request) const override {
    absl::StatusOr<v1::EncodeReply> reply = Encode(request);
    if (!reply.ok()) return reply.status();
    return reply->body();
  }

  absl::StatusOr<gateway::LlmRequest> ForTheRecord(
      const gateway::LlmRequest& request) const override {
    absl::StatusOr<v1::EncodeReply> reply = Encode(request);
    if (!reply.ok()) return reply.status();
    if (reply->masked_contents_size() != static_cast<int>(request.messages.size())) {
      return absl::DataLossError(absl::StrCat("gateway at ", target_, ": ",
                                              reply->masked_contents_size(),
                                              " masked messages for ", request.messages.size()));
    }
    gateway::LlmRequest masked = request;
    for (size_t i = 0; i < masked.messages.size(); ++i) {
      masked.messages[i].content = reply->masked_contents(static_cast<int>(i));
    }
    return masked;
  }

 private:
  v1::SessionCall CallOf(const gateway::LlmRequest& request) const {
    v1::SessionCall call;
    call.set_session(session_);
    *call.mutable_request() = RequestMessage(request);
    return call;
  }

  absl::StatusOr<v1::EncodeReply> Encode(const gateway::LlmRequest& request) const {
    grpc::ClientContext context;
    v1::EncodeReply reply;
    grpc::Status status = stub_->Encode(&context, CallOf(request), &reply);
    if (!status.ok()) return GatewayError(status, target_);
    return reply;
  }

  std::string target_;
  std::unique_ptr<v1::GatewayService::Stub> stub_;
  std::string session_;
  std::string destination_;
};

absl::StatusOr<std::shared_ptr<grpc::Channel>> ReadyChannel(const RemoteGatewayOptions& options) {
  if (options.gateway.empty()) return absl::InvalidArgumentError("--gateway is empty");
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(options.gateway, ChannelCredentialsOf(options.tls), args);
  grpc_connectivity_state state = WaitUntilReady(channel.get(), options.connect_seconds);
  if (state != GRPC_CHANNEL_READY) {
    // gRPC does not say why; under TLS a handshake of our own does.
    std::string handshake =
        options.tls.has_value()
            ? TlsHandshakeProblem(*options.tls, options.gateway, /*seconds=*/2)
            : "";
    if (!handshake.empty()) {
      return absl::UnavailableError(absl::StrCat("no gateway reachable at ", options.gateway,
                                                 " (UNAVAILABLE: ", handshake, ")"));
    }
    return absl::UnavailableError(absl::StrCat(
        "no gateway reachable at ", options.gateway,
        state == GRPC_CHANNEL_TRANSIENT_FAILURE
            ? " (UNAVAILABLE: the connection was refused or failed"
            : absl::StrCat(" (UNAVAILABLE: not connected within ", options.connect_seconds, " s"),
        options.tls.has_value() ? ")" : "; a gateway that serves TLS refuses plaintext: give "
                                        "--gateway-ca for it)"));
  }
  return channel;
}

}  // namespace

absl::StatusOr<std::unique_ptr<gateway::LlmClient>> ConnectGateway(
    const RemoteGatewayOptions& options, const gateway::GatewayMaterial& material) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = ReadyChannel(options);
  if (!channel.ok()) return channel.status();
  std::unique_ptr<v1::GatewayService::Stub> stub = v1::GatewayService::NewStub(*channel);
  grpc::ClientContext context;
  // Building the session's gate fingerprints the sources: time for it.
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  v1::OpenSessionCall call;
  *call.mutable_material() = MaterialMessage(material);
  v1::OpenSessionReply reply;
  grpc::Status status = stub->OpenSession(&context, call, &reply);
  if (!status.ok()) return GatewayError(status, options.gateway);
  return std::unique_ptr<gateway::LlmClient>(std::make_unique<RemoteGatewayClient>(
      options.gateway, *std::move(channel), reply.session(), reply.destination()));
}

absl::Status ProbeGateway(const RemoteGatewayOptions& options) {
  return ReadyChannel(options).status();
}

gateway::GatewayClientFactory RemoteGatewayFactory(const RemoteGatewayOptions& options) {
  return [options](const gateway::GatewayConfig& config)
             -> absl::StatusOr<std::unique_ptr<gateway::LlmClient>> {
    absl::StatusOr<gateway::GatewayMaterial> material = gateway::ReadGatewayMaterial(config);
    if (!material.ok()) return material.status();
    return ConnectGateway(options, *material);
  };
}

}  // namespace tracespec::services
