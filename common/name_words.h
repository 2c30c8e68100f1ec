// Names found as whole words. A sensitive name such as "token" must find
// `accessToken`, `ACCESS_TOKEN` and "the token is", but not `tokenize`,
// which merely contains it: text is read as words —
// runs of letters and digits, identifiers split further at camelCase
// humps, at letter/digit boundaries and at underscores — compared
// lower-case; a name occurs where consecutive words spell it exactly (the
// last one may add a plural "s"), its
// own spaces, underscores and hyphens dropped ("private key" finds
// `privateKey`, "api_key" finds `apiKey` and "API-KEY").
//
// Header-only and dependency-free so that the JVMTI probe shares it
// (common/deny_rule.h).
#ifndef TRACESPEC_COMMON_NAME_WORDS_H_
#define TRACESPEC_COMMON_NAME_WORDS_H_

#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracespec {

class NameWords {
 public:
  struct Word {
    std::string lower;
    size_t begin = 0;  // byte offsets in the text
    size_t end = 0;
  };

  // Splits `text` once; Find may then be asked for many names.
  explicit NameWords(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
      if (!IsAlnum(text[i])) {
        ++i;
        continue;
      }
      size_t start = i;
      ++i;
      while (i < text.size() && IsAlnum(text[i]) && !BoundaryBefore(text, i)) ++i;
      Word word{std::string(text.substr(start, i - start)), start, i};
      for (char& c : word.lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      words_.push_back(std::move(word));
    }
  }

  struct Span {
    size_t begin = 0;  // byte offsets in the text
    size_t end = 0;
    size_t first_word = 0;  // indices into words()
    size_t last_word = 0;
  };
  // The first occurrence of `name` as whole words, if any. A name with no
  // letter or digit never occurs.
  std::optional<Span> Find(std::string_view name) const {
    const std::string wanted = Letters(name);
    if (wanted.empty()) return std::nullopt;
    for (size_t first = 0; first < words_.size(); ++first) {
      size_t matched = 0;
      for (size_t k = first; k < words_.size(); ++k) {
        const std::string& w = words_[k].lower;
        const size_t rest = wanted.size() - matched;
        // The last word may be the plural ("tokens", "passwords").
        if (w.size() == rest + 1 && w.back() == 's' &&
            wanted.compare(matched, rest, w, 0, rest) == 0) {
          return Span{words_[first].begin, words_[k].end, first, k};
        }
        if (w.size() > rest || wanted.compare(matched, w.size(), w) != 0) break;
        matched += w.size();
        if (matched == wanted.size()) return Span{words_[first].begin, words_[k].end, first, k};
      }
    }
    return std::nullopt;
  }

  const std::vector<Word>& words() const { return words_; }

  // For an identifier's words and a match in them: whether the identifier
  // names the thing matched rather than an attribute of it. An identifier
  // is read the way English reads a compound, by its last word:
  // `accessToken`, `tokens`, `secretKey` and `TokenBucket` name the thing
  // (or hold it); `tokenExpiry`, `passwordLength`, `keyIndex`,
  // `PasswordRules` name a fact about it — the match is followed by a
  // last word of AttributeWords().
  bool NamesTheThing(const Span& at) const {
    if (at.last_word + 1 >= words_.size()) return true;
    const std::string& last = words_.back().lower;
    for (const char* attribute : AttributeWords()) {
      if (last == attribute) return false;
    }
    return true;
  }

  // Last words that say an identifier is about a thing, not the thing: its
  // time of expiry, size, position, kind or rules. None of them is a holder
  // of content (`value`, `bytes`, `hash`, `text`, `id` are not here).
  static const std::vector<const char*>& AttributeWords() {
    static const std::vector<const char*> words = {
        "expiry", "expiration", "expires", "ttl",    "lifetime", "timeout", "age",
        "count",  "counts",     "length",  "len",    "size",     "limit",   "index",
        "idx",    "type",       "kind",    "format", "rule",     "rules",   "policy",
        "strength", "version"};
    return words;
  }

  // `text`'s letters and digits, lower-case: how a name is compared.
  static std::string Letters(std::string_view text) {
    std::string out;
    for (char c : text) {
      if (IsAlnum(c)) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    return out;
  }

 private:
  static bool IsUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
  static bool IsLower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
  static bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
  static bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

  // Whether a word boundary lies between text[i-1] and text[i] inside a run
  // of letters and digits.
  static bool BoundaryBefore(std::string_view text, size_t i) {
    char prev = text[i - 1], cur = text[i];
    if (IsDigit(prev) != IsDigit(cur)) return true;  // token2, 2fa
    if (IsLower(prev) && IsUpper(cur)) return true;  // accessToken
    if (IsUpper(prev) && IsUpper(cur) && i + 1 < text.size() && IsLower(text[i + 1])) {
      return true;  // HTTPServer
    }
    return false;
  }

  std::vector<Word> words_;
};

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_NAME_WORDS_H_
