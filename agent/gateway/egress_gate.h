// The egress gate: decides whether one outbound payload may leave, by the
// egress policy. In order, it checks the destination against the allowed
// endpoints, the size cap, and then every string of the payload (every JSON
// string value and key, decoded; the raw bytes when the payload is not
// JSON) for
//   secret.<id>          a secret (see secret_scanner.h),
//   implementation-source text copied from an implementation source
//                        (see fingerprint.h),
//   redacted-field-name  the name of a field whose value was redacted,
//   denied-field-name    an identifier matching the redaction policy's deny
//                        patterns,
//   sensitive-name       a sensitive name of the redaction policy where it
//                        can carry data (common/sensitive_mention.h),
//   redacted-value       a value that must not leave (withheld values),
//   denied-value         a value the tests read from a denied location,
//                        found by its key (DeniedValueKeys) anywhere in
//                        the text, whatever path brought it there,
//   blocked-term         a term of the egress policy's blocked_terms.
// A secret.<id> finding is also made where a payload names a test class
// one of whose compiled string constants matches the rule (see
// TestClassConstants). Findings say where (JSON path, byte offsets, line
// and column) and never repeat the matched text.
#ifndef TRACESPEC_AGENT_GATEWAY_EGRESS_GATE_H_
#define TRACESPEC_AGENT_GATEWAY_EGRESS_GATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent/gateway/fingerprint.h"
#include "agent/gateway/secret_scanner.h"
#include "tracespec/v1/egress.pb.h"
#include "tracespec/v1/observation.pb.h"
#include "tracespec/v1/policy.pb.h"
#include "tracespec/v1/probe.pb.h"

namespace tracespec::gateway {

// The string constants of a compiled test class (and of the classes nested
// in its source file), as javac computed them: escapes resolved and
// compile-time concatenations — of literals, chars, numbers and constant
// variables — folded (JLS 15.29). The source sent spells them otherwise.
struct TestClassConstants {
  std::string class_name;  // binary name, "pkg.FooTest" or "pkg.FooTest$Nested"
  std::vector<std::string> strings;
};

// The keys of the values the tests read from denied locations (the probe's
// taint set: ObserveSummary.denied_text_keys, denied_number_keys): hashes
// (ConstantKey, observer/probe/substitute_value.h), never the values. A
// text is found as a window of the payload of its length whose key is
// among them; a number as a run of decimal digits (with its sign, and
// without) whose value's key is. When every text of a length came with
// its RollingKey, the windows of that length are hashed with ConstantKey
// only where their rolling key (one pass per length) is one of those: the
// same findings, at a fraction of the cost.
struct DeniedValueKeys {
  // By length in UTF-8 bytes (4 or more), the keys of the texts that long.
  std::map<uint32_t, std::set<uint64_t>> texts;
  // By length, the rolling keys of the texts that came with one, by key.
  std::map<uint32_t, std::map<uint64_t, uint32_t>> rolling;
  std::set<uint64_t> numbers;
  // Adds one text's key (and its rolling key, when known).
  void AddText(uint32_t bytes, uint64_t key, std::optional<uint32_t> rolling_key);
  bool empty() const { return texts.empty() && numbers.empty(); }
  size_t size() const;
  // Adds keys as the probe reports them (ProbeStatus, ObserveSummary and
  // the gateway service's GatewayMaterial have the same two fields).
  void Add(const google::protobuf::RepeatedPtrField<v1::DeniedTextKey>& text_keys,
           const google::protobuf::RepeatedField<uint64_t>& number_keys);
};

// What must not leave besides secrets and implementation text.
struct ProtectedMaterial {
  // Fields whose values were redacted: matched as whole identifiers,
  // ignoring case.
  std::vector<std::string> redacted_field_names;
  // Glob patterns (RedactionPolicy.deny) matched, ignoring case, against
  // every identifier of the payload.
  std::vector<std::string> denied_name_patterns;
  // RedactionPolicy.sensitive_names, found by FindSensitiveMention.
  std::vector<std::string> sensitive_names;
  // Fields recorded only with types no secret fits in (PlainValueNames):
  // a sensitive name in one of them (an `int tokens`) is no mention.
  std::set<std::string> plain_value_names;
  // Exact byte strings that must not leave.
  std::vector<std::string> withheld_values;
  // Fixed prompt text (prompt::PromptBuilder::TemplateTexts()): the name
  // rules (redacted-field-name, denied-field-name, sensitive-name) ignore
  // matches inside its occurrences; secrets and the rest are still checked.
  std::vector<std::string> template_texts;
  // Class names the run sends anyway (the target, the test classes): deny
  // patterns are for fields, parameters and methods, so `KeyTest` is not
  // matched by `*key*`. Exact, case-sensitive.
  std::vector<std::string> exempt_class_names;
  // Compiled test classes whose sources may be sent: a secret rule that
  // matches one of their string constants blocks every payload that names
  // the class (its source is in it, spelt in a way the rule may miss).
  std::vector<TestClassConstants> test_constants;
  // Values the tests read from denied locations, by key.
  DeniedValueKeys denied_keys;
};

// Collects protected material from the redaction policy (deny patterns,
// sensitive names) and the observations: plain value names, names of fields recorded as
// Redacted, and the string values (4 bytes or longer: arguments, fields,
// results, exception messages) of excluded observations that no included
// observation also holds.
ProtectedMaterial ProtectedMaterialFrom(const v1::RedactionPolicy& policy,
                                        const std::vector<v1::Observation>& observations);

struct GateFinding {
  // "endpoint-not-allowed", "max-payload-bytes", "secret.github-token", ...
  std::string rule;
  // Where, e.g. "messages[1].content bytes 120..160 (line 7, column 3)";
  // never the matched text.
  std::string where;
  // For findings inside a string: its JSON path ("messages[1].content",
  // "body" when the payload is not JSON) and the matched byte range of the
  // decoded string.
  bool has_span = false;
  std::string path;
  size_t begin = 0;
  size_t end = 0;
};

struct GateVerdict {
  std::vector<GateFinding> findings;
  bool allowed() const { return findings.empty(); }
  // "blocked by rule R at W" (+ "; and N more findings"), or "allowed".
  std::string Summary() const;
};

class EgressGate {
 public:
  // `fingerprints` may be null (no implementation sources at hand).
  static absl::StatusOr<EgressGate> Create(
      v1::EgressPolicy policy, ProtectedMaterial material,
      std::shared_ptr<const ImplementationFingerprints> fingerprints);

  // Every finding for sending `payload` to `destination` (a URL).
  GateVerdict Check(absl::string_view destination, absl::string_view payload) const;

  const v1::EgressPolicy& policy() const { return policy_; }

 private:
  EgressGate() = default;
  void CheckText(const std::string& path, absl::string_view text,
                 std::vector<GateFinding>* findings) const;

  v1::EgressPolicy policy_;
  ProtectedMaterial material_;
  std::vector<std::string> lower_redacted_names_;
  std::vector<std::string> lower_sensitive_names_;
  std::vector<std::string> lower_blocked_terms_;
  std::shared_ptr<const SecretScanner> secrets_;
  // Test classes a secret rule matched a constant of: simple name, rule id.
  std::vector<std::pair<std::string, std::string>> compiled_secrets_;
  std::shared_ptr<const ImplementationFingerprints> fingerprints_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_EGRESS_GATE_H_
