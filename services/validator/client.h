// The caller's side of the validator service: a check::Validator whose
// Validate is `tracespec.v1.ValidatorService/Validate` on a pool of
// `tracespec serve validator` replicas, so that `validate`, `infer` (and
// whatever else takes a check::Validator) cannot tell it from the
// in-process one. The request and the report cross the wire through
// convert.h (CallOf / ReportOf), nothing else.
//
// One channel for the whole pool, balanced by gRPC itself (service config):
//   - `round_robin` over every address the target resolves to;
//   - client-side health checking (`healthCheckConfig`, grpc.health.v1):
//     a replica whose health service does not say SERVING gets no calls;
//   - a `retryPolicy` on UNAVAILABLE: a call that fails because its replica
//     died (or shut down) is sent again, to another replica when one is up.
//
// The service has no strength measure: MeasureStrength runs in process, on
// the caller's class path, when a local validator is given (else
// UNIMPLEMENTED).
#ifndef TRACESPEC_SERVICES_VALIDATOR_CLIENT_H_
#define TRACESPEC_SERVICES_VALIDATOR_CLIENT_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "services/common/tls.h"
#include "validator/check/validator.h"

namespace tracespec::services {

// The gRPC target for `--validators`: "HOST:PORT[,HOST:PORT...]" with
// numeric addresses becomes "ipv4:a:p,b:q" (or "ipv6:[a]:p,..."; the two
// cannot be mixed); one "NAME:PORT" becomes "dns:///NAME:PORT"; a target
// with a scheme ("dns:///validators:7411", "ipv4:...", "unix:...") is kept
// as it is. InvalidArgument for an empty entry, a missing port, or a list
// that names hosts (give one dns:/// name for those).
absl::StatusOr<std::string> ValidatorsTarget(const std::string& validators);

// The service config the channel gets (JSON): round_robin, health checks
// on "tracespec.v1.ValidatorService", retries on UNAVAILABLE.
std::string ValidatorsServiceConfig();

struct RemoteValidatorOptions {
  // As given to --validators (ValidatorsTarget).
  std::string validators;
  // How long Connect waits for a replica to be ready (connected and
  // SERVING) before giving up.
  double connect_seconds = 10;
  // A call's deadline is the request's time limit plus this: time to queue
  // on a busy replica, to deepen a PASS, to check coverage, to retry.
  double call_slack_seconds = 120;
  // Runs MeasureStrength; may be null (then UNIMPLEMENTED).
  std::unique_ptr<check::Validator> local;
  // Unset: plaintext. Set: TLS; each server's certificate must chain to
  // `server_ca_pem` and name the host of the target (ValidatorsTlsAuthority) in
  // its subject alternative names; with an identity, that certificate is
  // presented to servers that ask for one (mutual TLS).
  std::optional<ClientTls> tls;
};

// The host a server's certificate must name under TLS, as "HOST:PORT" for
// gRPC's authority: the host of a numeric list (every entry must have the
// same host, since one channel checks one name; for replicas on several
// hosts give one dns:///NAME:PORT), "" for any other target (gRPC then
// takes the name from the target itself: NAME of dns:///NAME:PORT).
// InvalidArgument for a list with several hosts.
absl::StatusOr<std::string> ValidatorsTlsAuthority(const std::string& target);

// The channel to the pool and a validator on it. Fails with UNAVAILABLE
// naming the target when no replica is ready within connect_seconds (none
// listening, none SERVING, every TLS handshake failed: gRPC's last
// connection error is part of the message), InvalidArgument for a
// malformed --validators.
absl::StatusOr<std::unique_ptr<check::Validator>> ConnectValidators(
    RemoteValidatorOptions options);

}  // namespace tracespec::services

#endif  // TRACESPEC_SERVICES_VALIDATOR_CLIENT_H_
