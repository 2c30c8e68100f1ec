// Finds secrets in outbound text, in the spirit of gitleaks: RE2 rules for
// the credential formats of some fifty providers (cloud keys, payment,
// messaging, package registries, source hosting, ...), private key blocks,
// JWTs and credentials in URLs; a generic `name = value` rule for
// key/secret/token/password names whose value is long, contains a digit and
// has enough Shannon entropy; and a rule for long literals with the entropy
// of random data. Java compile-time concatenations (`"AKIA" + "..."`) are
// folded before scanning. Matches are reported as byte spans; the scanner
// never copies the secret anywhere.
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

// Java source text with compile-time string concatenations folded:
// `"ab" + "cd"` (blanks, line breaks and comments around the `+` allowed)
// becomes `"abcd"`. `origin[i]` is the index in the input of folded byte i.
struct FoldedText {
  std::string text;
  std::vector<size_t> origin;
  int joins = 0;
};
FoldedText FoldStringConcatenations(absl::string_view text);

class SecretScanner {
 public:
  // The built-in rules minus the policy's disabled ones, plus its own rules
  // (assumed checked by ParseEgressPolicy; a bad regex is still an error).
  static absl::StatusOr<SecretScanner> Create(const v1::EgressPolicy& policy);

  // Every match, ordered by position; also those in the text with string
  // concatenations folded (spans then run from the first literal's
  // character to the last one's).
  std::vector<SecretMatch> Scan(absl::string_view text) const;

  // Ids of the built-in rules (provider formats such as aws-access-key-id,
  // stripe-secret-key, gitlab-token, ...; private-key, jwt,
  // url-credentials, high-entropy-literal, generic-assignment), in order.
  static std::vector<std::string> BuiltinRuleIds();

  struct Rule;

 private:
  std::vector<SecretMatch> ScanPlain(absl::string_view text) const;
  std::vector<std::shared_ptr<const Rule>> rules_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_SECRET_SCANNER_H_
