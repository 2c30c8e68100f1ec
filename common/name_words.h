// Names found as whole words. A sensitive name such as "token" must find
// `accessToken`, `ACCESS_TOKEN` and "the token is", but not `tokenize`,
// which merely contains it: text is read as words —
// runs of letters and digits, identifiers split further at camelCase
// humps, at letter/digit boundaries and at underscores — compared
// lower-case; a name occurs where consecutive words spell it exactly (the
// last one may add a plural "s"), its
// own spaces, underscores and hyphens dropped ("private key" finds
// `privateKey`, "api_key" finds `apiKey` and "API-KEY").
#ifndef TRACESPEC_COMMON_NAME_WORDS_H_
#define TRACESPEC_COMMON_NAME_WORDS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace tracespec {

class NameWords {
 public:
  // Splits `text` once; Find may then be asked for many names.
  explicit NameWords(absl::string_view text);

  struct Span {
    size_t begin = 0;  // byte offsets in the text
    size_t end = 0;
  };
  // The first occurrence of `name` as whole words, if any. A name with no
  // letter or digit never occurs.
  std::optional<Span> Find(absl::string_view name) const;

 private:
  struct Word {
    std::string lower;
    size_t begin = 0;
    size_t end = 0;
  };
  std::vector<Word> words_;
};

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_NAME_WORDS_H_
