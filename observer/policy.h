// Redaction policies: loading a .textproto, validating its values (errors
// carry file:line:column), filling in defaults, and the built-in default
// policy (policies/default.textproto, compiled in).
#ifndef TRACESPEC_OBSERVER_POLICY_H_
#define TRACESPEC_OBSERVER_POLICY_H_

#include <string>

#include "absl/status/statusor.h"
#include "tracespec/v1/policy.pb.h"

namespace tracespec::observer {

// Defaults for values a policy leaves at 0.
inline constexpr int kDefaultMaxDepth = 3;
inline constexpr int kDefaultMaxArrayLength = 64;
// Observations kept per method (observer/store.h).
inline constexpr int kDefaultMaxObservationsPerMethod = 1000;
// Upper limits a policy may ask for.
inline constexpr int kMaxMaxDepth = 32;
inline constexpr int kMaxMaxArrayLength = 1 << 20;

// Parses and validates policy text; `name` is used in messages.
absl::StatusOr<v1::RedactionPolicy> ParsePolicy(const std::string& text, const std::string& name);

// Reads, parses and validates a policy file.
absl::StatusOr<v1::RedactionPolicy> LoadPolicy(const std::string& path);

// The shipped default policy (an error only if the build embedded a broken
// file, which the tests rule out).
absl::StatusOr<v1::RedactionPolicy> DefaultPolicy();

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_POLICY_H_
