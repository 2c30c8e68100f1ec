// Finds secrets in outbound text, in the spirit of gitleaks: RE2 rules for
// well-known credential formats (cloud keys, private key blocks, GitHub,
// Slack and OpenAI-style tokens, JWTs, credentials in URLs) and a generic
// `name = value` rule for key/secret/token/password names whose value is
// long, contains a digit and has enough Shannon entropy. Matches are
// reported as byte spans; the scanner never copies the secret anywhere.
#ifndef TRACESPEC_AGENT_GATEWAY_SECRET_SCANNER_H_
#define TRACESPEC_AGENT_GATEWAY_SECRET_SCANNER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tracespec/v1/egress.pb.h"

namespace tracespec::gateway {

struct SecretMatch {
  std::string rule_id;
  // Byte span of the secret in the scanned text.
  size_t begin = 0;
  size_t end = 0;
};

// Shannon entropy of `text`'s bytes, in bits per byte.
double ShannonEntropy(absl::string_view text);

class SecretScanner {
 public:
  // The built-in rules minus the policy's disabled ones, plus its own rules
  // (assumed checked by ParseEgressPolicy; a bad regex is still an error).
  static absl::StatusOr<SecretScanner> Create(const v1::EgressPolicy& policy);

  // Every match, ordered by position.
  std::vector<SecretMatch> Scan(absl::string_view text) const;

  // Ids of the built-in rules: aws-access-key-id, aws-secret-access-key,
  // private-key, github-token, github-fine-grained-token, slack-token,
  // slack-webhook, openai-api-key, google-api-key, jwt, url-credentials,
  // generic-assignment.
  static std::vector<std::string> BuiltinRuleIds();

  struct Rule;

 private:
  std::vector<std::shared_ptr<const Rule>> rules_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_SECRET_SCANNER_H_
