// Finds secrets in outbound text, in the spirit of gitleaks: RE2 rules for
// the credential formats of some fifty providers (cloud keys, payment,
// messaging, package registries, source hosting, ...), private key blocks,
// JWTs and credentials in URLs; a generic `name = value` rule for
// key/secret/token/password names whose value is long, contains a digit and
// has enough Shannon entropy; and a rule for long literals with the entropy
// of random data; credentials inside longer text (HTTP Authorization
// Bearer/Basic values, cookies, API key headers) and random-looking tokens
// inside comments and longer literals. Besides the text as given, the
// scanner reads the Java source as javac will: escapes resolved, text
// blocks joined and compile-time concatenations (`"AKIA" + "..."`) folded.
// Matches are reported as byte spans of the text given; the scanner never
// copies the secret anywhere.
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

// Java source as javac reads its literals: unicode escapes resolved
// everywhere (JLS 3.3: `\u0041`, `\uuu0041`; not after an odd run of
// backslashes), compile-time concatenations folded as above, then inside
// string literals, char literals and text blocks the escape sequences
// resolved (JLS 3.10.7: `\"`, `\\`, `\n`, `\s`, octal `\101`, and in text
// blocks `\<line break>` joins lines) and text blocks' incidental
// indentation and trailing blanks stripped (JLS 3.10.6). Literals keep their
// quotes (a text block's `"""` become one `"`). Byte i of `text` comes from
// the input bytes [origin[i], origin_end[i]): a match spelt with escapes
// maps back to the whole spelling. `changes` counts resolved escapes,
// folded concatenations and text blocks (0: `text` is the input).
struct DecodedText {
  std::string text;
  std::vector<size_t> origin;
  std::vector<size_t> origin_end;
  int changes = 0;
};
DecodedText DecodeJavaSource(absl::string_view text);

class SecretScanner {
 public:
  // The built-in rules minus the policy's disabled ones, plus its own rules
  // (assumed checked by ParseEgressPolicy; a bad regex is still an error).
  static absl::StatusOr<SecretScanner> Create(const v1::EgressPolicy& policy);

  // Every match, ordered by position; also those in the decoded source
  // (DecodeJavaSource: escapes resolved, text blocks joined, concatenations
  // folded), with spans mapped back to the text given: from the first byte
  // of the first character's spelling to the last byte of the last one's.
  std::vector<SecretMatch> Scan(absl::string_view text) const;

  // Ids of the built-in rules (provider formats such as aws-access-key-id,
  // stripe-secret-key, gitlab-token, ...; private-key, jwt,
  // url-credentials, bearer-token, basic-auth, cookie-value,
  // api-key-header, high-entropy-literal, high-entropy-in-literal,
  // high-entropy-comment, generic-assignment), in order.
  static std::vector<std::string> BuiltinRuleIds();

  struct Rule;

 private:
  std::vector<SecretMatch> ScanPlain(absl::string_view text) const;
  std::vector<std::shared_ptr<const Rule>> rules_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_SECRET_SCANNER_H_
