// Glob matching for policy patterns: `*` matches any run of characters, `?`
// one character; everything else literally. Header-only and dependency-free
// so that the JVMTI probe, which may use nothing but JNI/JVMTI and
// protobuf-lite, shares it.
#ifndef TRACESPEC_COMMON_GLOB_H_
#define TRACESPEC_COMMON_GLOB_H_

#include <cctype>
#include <cstddef>
#include <string_view>

namespace tracespec {

// Whether `text` is a pattern (holds `*` or `?`) rather than a plain name.
inline bool IsGlobPattern(std::string_view text) {
  return text.find_first_of("*?") != std::string_view::npos;
}

inline bool GlobMatch(std::string_view pattern, std::string_view text,
                      bool ignore_case = false) {
  auto same = [ignore_case](char a, char b) {
    if (!ignore_case) return a == b;
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  };
  // Iterative matcher with single backtrack point: linear in practice.
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || (pattern[p] != '*' && same(pattern[p], text[t])))) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_GLOB_H_
