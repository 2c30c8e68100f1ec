#include "services/validator/client.h"

#include <arpa/inet.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "grpcpp/grpcpp.h"
#include "services/common/serving.h"
#include "services/validator/convert.h"
#include "tracespec/v1/validator_service.grpc.pb.h"

namespace tracespec::services {
namespace {

// gRPC caps a retry policy at 5 attempts; backoff long enough for the
// picker to learn that a replica's connection broke.
constexpr char kServiceConfig[] = R"({
  "loadBalancingConfig": [{"round_robin": {}}],
  "healthCheckConfig": {"serviceName": "tracespec.v1.ValidatorService"},
  "methodConfig": [{
    "name": [{"service": "tracespec.v1.ValidatorService"}],
    "retryPolicy": {
      "maxAttempts": 5,
      "initialBackoff": "0.2s",
      "maxBackoff": "2s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }]
})";

// A call is retried only while gRPC still holds all of it: without this a
// request with many observations (over the default 256 KiB) would be sent
// once, and a replica dying under it would fail the call.
constexpr int kRetryBufferBytes = 256 << 20;

enum class Family { kNone, kIpv4, kIpv6 };

// "1.2.3.4:7411" -> kIpv4, "[::1]:7411" -> kIpv6, a name -> kNone; an entry
// without a port is an error.
absl::StatusOr<Family> FamilyOf(absl::string_view entry) {
  std::string host;
  absl::string_view port;
  if (absl::StartsWith(entry, "[")) {
    size_t close = entry.find("]:");
    if (close == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", entry, "\" is not [IPV6]:PORT"));
    }
    host = std::string(entry.substr(1, close - 1));
    port = entry.substr(close + 2);
  } else {
    size_t colon = entry.rfind(':');
    if (colon == absl::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat("\"", entry, "\" has no :PORT"));
    }
    host = std::string(entry.substr(0, colon));
    port = entry.substr(colon + 1);
  }
  if (host.empty() || port.empty() ||
      port.find_first_not_of("0123456789") != absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("\"", entry, "\" is not HOST:PORT"));
  }
  unsigned char buffer[16];
  if (inet_pton(AF_INET, host.c_str(), buffer) == 1) return Family::kIpv4;
  if (inet_pton(AF_INET6, host.c_str(), buffer) == 1) return Family::kIpv6;
  return Family::kNone;
}

absl::Status FromGrpc(const grpc::Status& status, absl::string_view target) {
  absl::StatusCode code = static_cast<absl::StatusCode>(status.error_code());
  // The server's verdict on the request (unknown method, ...) reads as it
  // does in process; a failure of the call itself names the pool.
  if (code == absl::StatusCode::kInvalidArgument || code == absl::StatusCode::kNotFound ||
      code == absl::StatusCode::kFailedPrecondition) {
    return absl::Status(code, status.error_message());
  }
  return absl::Status(code, absl::StrCat("validator service at ", target, ": ",
                                         status.error_message()));
}

class RemoteValidator : public check::Validator {
 public:
  RemoteValidator(std::string target, std::shared_ptr<grpc::Channel> channel,
                  double call_slack_seconds, std::unique_ptr<check::Validator> local)
      : target_(std::move(target)),
        stub_(v1::ValidatorService::NewStub(channel)),
        call_slack_seconds_(call_slack_seconds),
        local_(std::move(local)) {}

  absl::StatusOr<check::ValidationReport> Validate(
      const check::ValidateRequest& request) override {
    absl::StatusOr<v1::ValidateCall> call = CallOf(request);
    if (!call.ok()) return call.status();
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::duration<double>(request.timeout_seconds +
                                                           call_slack_seconds_)));
    v1::ValidateReply reply;
    grpc::Status status = stub_->Validate(&context, *call, &reply);
    if (!status.ok()) return FromGrpc(status, target_);
    return ReportOf(reply);
  }

  absl::StatusOr<check::ValidationReport> MeasureStrength(
      const check::ValidateRequest& request) override {
    if (local_ == nullptr) {
      return absl::UnimplementedError(
          "the validator service does not measure strength, and no local class path was given");
    }
    return local_->MeasureStrength(request);
  }

 private:
  std::string target_;
  std::unique_ptr<v1::ValidatorService::Stub> stub_;
  double call_slack_seconds_;
  std::unique_ptr<check::Validator> local_;
};

}  // namespace

absl::StatusOr<std::string> ValidatorsTarget(const std::string& validators) {
  if (validators.empty()) return absl::InvalidArgumentError("--validators is empty");
  // "dns:///x:1", "ipv4:...", "unix:/path": a gRPC target already.
  for (absl::string_view scheme : {"dns:", "ipv4:", "ipv6:", "unix:", "unix-abstract:"}) {
    if (absl::StartsWith(validators, scheme)) return validators;
  }
  std::vector<absl::string_view> entries = absl::StrSplit(validators, ',');
  Family family = Family::kNone;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--validators \"", validators, "\": entry ", i + 1, " is empty"));
    }
    absl::StatusOr<Family> f = FamilyOf(entries[i]);
    if (!f.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--validators \"", validators, "\": ", f.status().message()));
    }
    if (*f == Family::kNone) {
      if (entries.size() == 1) return absl::StrCat("dns:///", validators);
      return absl::InvalidArgumentError(absl::StrCat(
          "--validators \"", validators, "\": a list takes numeric addresses (\"", entries[i],
          "\" names a host); for a name give one target, dns:///NAME:PORT"));
    }
    if (i > 0 && *f != family) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--validators \"", validators, "\": IPv4 and IPv6 addresses cannot be mixed"));
    }
    family = *f;
  }
  return absl::StrCat(family == Family::kIpv4 ? "ipv4:" : "ipv6:", validators);
}

std::string ValidatorsServiceConfig() { return kServiceConfig; }

absl::StatusOr<std::string> ValidatorsTlsAuthority(const std::string& target) {
  if (!absl::StartsWith(target, "ipv4:") && !absl::StartsWith(target, "ipv6:")) {
    return std::string();
  }
  absl::string_view entries = absl::string_view(target).substr(5);
  std::vector<absl::string_view> list = absl::StrSplit(entries, ',');
  absl::string_view first_host = list[0].substr(0, list[0].rfind(':'));
  for (absl::string_view entry : list) {
    absl::string_view host = entry.substr(0, entry.rfind(':'));
    if (host != first_host) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--validators ", target.substr(5), " with --validators-ca: the list names ", first_host,
          " and ", host, ", but one server name is checked against the certificates; for "
          "replicas on several hosts give one dns:///NAME:PORT whose certificates name NAME"));
    }
  }
  return std::string(list[0]);
}

absl::StatusOr<std::unique_ptr<check::Validator>> ConnectValidators(
    RemoteValidatorOptions options) {
  absl::StatusOr<std::string> target = ValidatorsTarget(options.validators);
  if (!target.ok()) return target.status();
  grpc::ChannelArguments args;
  args.SetServiceConfigJSON(kServiceConfig);
  args.SetInt(GRPC_ARG_PER_RPC_RETRY_BUFFER_SIZE, kRetryBufferBytes);
  args.SetMaxReceiveMessageSize(-1);
  if (options.tls.has_value()) {
    absl::StatusOr<std::string> authority = ValidatorsTlsAuthority(*target);
    if (!authority.ok()) return authority.status();
    if (!authority->empty()) args.SetString(GRPC_ARG_DEFAULT_AUTHORITY, *authority);
  }
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(*target, ChannelCredentialsOf(options.tls), args);
  // Ready: some replica connected and its health service says SERVING.
  // TRANSIENT_FAILURE: every replica refused or failed (round_robin reports
  // it only then), so there is no point in waiting.
  grpc_connectivity_state state = WaitUntilReady(channel.get(), options.connect_seconds);
  if (state != GRPC_CHANNEL_READY) {
    // gRPC does not say why; under TLS a handshake of our own does.
    std::string handshake = options.tls.has_value()
                                ? TlsHandshakeProblem(*options.tls, *target, /*seconds=*/2)
                                : "";
    if (!handshake.empty()) {
      return absl::UnavailableError(
          absl::StrCat("no validator reachable at ", *target, " (UNAVAILABLE: ", handshake, ")"));
    }
    return absl::UnavailableError(absl::StrCat(
        "no validator reachable at ", *target,
        state == GRPC_CHANNEL_TRANSIENT_FAILURE
            ? " (UNAVAILABLE: every address refused or failed the connection, or does not "
              "say SERVING"
            : absl::StrCat(" (UNAVAILABLE: none connected and SERVING within ",
                           options.connect_seconds, " s"),
        options.tls.has_value() ? ")" : "; servers that serve TLS refuse plaintext: give "
                                        "--validators-ca for those)"));
  }
  return std::make_unique<RemoteValidator>(*std::move(target), std::move(channel),
                                           options.call_slack_seconds, std::move(options.local));
}

}  // namespace tracespec::services
