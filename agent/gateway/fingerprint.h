// Fingerprints of implementation sources, so the gate can block a payload
// that contains implementation text. Winnowing (Schleimer, Wilkerson and
// Aiken, SIGMOD 2003) over normalised Java tokens, as MOSS does: a source is
// split into tokens (keywords, numbers, single punctuation characters, and
// identifiers, every identifier that is not a Java keyword being the same
// token, so that renamed locals, fields or parameters — by hand or by
// --anonymize — change nothing; comments, package and import declarations
// dropped, since license headers and imports are shared with tests), every k
// consecutive tokens are hashed, and in each window of `window` consecutive
// k-gram hashes the smallest is kept.
//
// A payload is scanned by hashing all of its k-grams: tokens covered by a
// k-gram whose hash is a fingerprint are marked, and a run of at least
// `min_matched_tokens` marked tokens is reported. The payload is scanned
// twice, once with its (closed) comments dropped, so `/**/` between copied
// statements does not hide them, and once with only the comment markers
// dropped, so code copied into a comment is found. Guarantee: any text of
// min_matched_tokens + 2 * (window - 1) tokens or more copied from an
// implementation (whitespace, comments and identifier names aside) is found;
// runs shorter than min_matched_tokens (a method's declaration, a call) are
// never reported.
// Defaults k=10, window=6, min_matched_tokens=24 catch every copied run of
// 34 tokens (about three lines of code).
#ifndef TRACESPEC_AGENT_GATEWAY_FINGERPRINT_H_
#define TRACESPEC_AGENT_GATEWAY_FINGERPRINT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tracespec/v1/egress.pb.h"

namespace tracespec::gateway {

// A source file's name and text.
struct NamedSource {
  std::string name;
  std::string text;
};

// `path` itself when it is a file, else every *.java file under it, in path
// order, read. NotFound when `path` does not exist.
absl::StatusOr<std::vector<NamedSource>> ReadJavaSources(const std::string& path);

struct FingerprintOptions {
  int k = 10;
  int window = 6;
  int min_matched_tokens = 24;
  // The policy's settings, zero values replaced by the defaults above.
  static FingerprintOptions FromPolicy(const v1::FingerprintSettings& settings);
};

// A run of payload text that matches an implementation source.
struct CopiedText {
  // Byte span in the scanned text.
  size_t begin = 0;
  size_t end = 0;
  int tokens = 0;
  // Name of the implementation source (as given to AddSource).
  std::string source;
};

class ImplementationFingerprints {
 public:
  explicit ImplementationFingerprints(FingerprintOptions options = {}) : options_(options) {}

  // Fingerprints one implementation source (Java text).
  void AddSource(const std::string& name, absl::string_view text);
  // Every *.java file under `path` (a file or a directory), in path order.
  absl::Status AddSourceTree(const std::string& path);

  bool empty() const { return fingerprints_.empty(); }
  size_t size() const { return fingerprints_.size(); }
  const FingerprintOptions& options() const { return options_; }

  // The longest run of `text` covered by implementation k-grams, if it has
  // at least min_matched_tokens tokens.
  std::optional<CopiedText> FindCopiedText(absl::string_view text) const;

 private:
  FingerprintOptions options_;
  // Fingerprint -> index into sources_.
  std::unordered_map<uint64_t, size_t> fingerprints_;
  std::vector<std::string> sources_;
};

}  // namespace tracespec::gateway

#endif  // TRACESPEC_AGENT_GATEWAY_FINGERPRINT_H_
