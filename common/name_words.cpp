// Names found as whole words; see name_words.h.
#include "common/name_words.h"

#include <cctype>

#include "absl/strings/ascii.h"

namespace tracespec {
namespace {

bool IsUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool IsLower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Whether a word boundary lies between text[i-1] and text[i] inside a run
// of letters and digits.
bool BoundaryBefore(absl::string_view text, size_t i) {
  char prev = text[i - 1], cur = text[i];
  if (IsDigit(prev) != IsDigit(cur)) return true;               // token2, 2fa
  if (IsLower(prev) && IsUpper(cur)) return true;               // accessToken
  if (IsUpper(prev) && IsUpper(cur) && i + 1 < text.size() && IsLower(text[i + 1])) {
    return true;                                                // HTTPServer
  }
  return false;
}

}  // namespace

NameWords::NameWords(absl::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (!IsAlnum(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    ++i;
    while (i < text.size() && IsAlnum(text[i]) && !BoundaryBefore(text, i)) ++i;
    words_.push_back({absl::AsciiStrToLower(text.substr(start, i - start)), start, i});
  }
}

std::optional<NameWords::Span> NameWords::Find(absl::string_view name) const {
  std::string wanted;
  for (char c : name) {
    if (IsAlnum(c)) wanted.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (wanted.empty()) return std::nullopt;
  for (size_t first = 0; first < words_.size(); ++first) {
    size_t matched = 0;
    for (size_t k = first; k < words_.size(); ++k) {
      const std::string& w = words_[k].lower;
      const size_t rest = wanted.size() - matched;
      // The last word may be the plural ("tokens", "passwords").
      if (w.size() == rest + 1 && w.back() == 's' && wanted.compare(matched, rest, w, 0, rest) == 0) {
        return Span{words_[first].begin, words_[k].end};
      }
      if (w.size() > rest || wanted.compare(matched, w.size(), w) != 0) break;
      matched += w.size();
      if (matched == wanted.size()) return Span{words_[first].begin, words_[k].end};
    }
  }
  return std::nullopt;
}

}  // namespace tracespec
