// Loading and checking the egress policy (tracespec.v1.EgressPolicy, see
// proto/tracespec/v1/egress.proto and policies/egress.textproto), and the
// URL matching its endpoint list uses.
#ifndef TRACESPEC_AGENT_GATEWAY_EGRESS_POLICY_H_
#define TRACESPEC_AGENT_GATEWAY_EGRESS_POLICY_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tracespec/v1/egress.pb.h"

namespace tracespec::gateway {

// Defaults for the policy's zero values.
inline constexpr int64_t kDefaultMaxPayloadBytes = 262144;
inline constexpr double kDefaultGenericSecretEntropy = 3.5;

// Reads and checks a policy file. Errors read "file:line:column: message"
// (text-format errors) or "file:line: message" (bad values: unknown scheme,
// regex that does not compile, unknown rule id, ...).
absl::StatusOr<v1::EgressPolicy> LoadEgressPolicy(const std::string& path);
absl::StatusOr<v1::EgressPolicy> ParseEgressPolicy(const std::string& text,
                                                   const std::string& name_for_errors);

// An http(s) URL split into what the endpoint list compares.
struct Url {
  std::string scheme;  // lower case
  std::string host;    // lower case, IPv6 without brackets
  int port = 0;        // explicit or the scheme's default
  std::string path;    // "/" when empty; query and fragment removed
};

// Parses "scheme://host[:port][/path][?query]". User information
// ("user:pass@host") is rejected: credentials never go into a URL.
absl::StatusOr<Url> ParseUrl(absl::string_view url);

// Whether `endpoint` admits `url` (see Endpoint in egress.proto).
bool EndpointAllows(const v1::Endpoint& endpoint, const Url& url);

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_EGRESS_POLICY_H_
