// The escape sequences of Java string and char literals and text blocks
// (JLS 3.10.7), read by the prompt's literal collector and the secret
// scanner's decoded source. Unicode escapes (`\uXXXX`) are no escape
// sequences: javac resolves them before it reads any token (JLS 3.3), and
// callers handle them. Header-only and dependency-free, like utf8.h.
#ifndef TRACESPEC_COMMON_JAVA_ESCAPE_H_
#define TRACESPEC_COMMON_JAVA_ESCAPE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tracespec {

struct JavaEscape {
  uint32_t value = 0;  // the char it stands for
  size_t length = 0;   // its bytes, from the backslash
  // `\<line break>` of a text block: stands for nothing.
  bool line_continuation = false;
};

// The escape sequence starting at s[at] (a backslash): `\b \t \n \f \r \s
// \" \' \\`, octal `\0` to `\377`, and `\<line break>`; none for anything
// else (javac rejects it).
inline std::optional<JavaEscape> JavaEscapeAt(std::string_view s, size_t at) {
  if (at + 1 >= s.size() || s[at] != '\\') return std::nullopt;
  char e = s[at + 1];
  switch (e) {
    case 'b': return JavaEscape{'\b', 2};
    case 't': return JavaEscape{'\t', 2};
    case 'n': return JavaEscape{'\n', 2};
    case 'f': return JavaEscape{'\f', 2};
    case 'r': return JavaEscape{'\r', 2};
    case 's': return JavaEscape{' ', 2};
    case '"':
    case '\'':
    case '\\': return JavaEscape{static_cast<uint32_t>(e), 2};
    case '\n': return JavaEscape{0, 2, true};
    default: break;
  }
  if (e < '0' || e > '7') return std::nullopt;
  // Up to three octal digits when the first is 0-3, else up to two.
  size_t max = e <= '3' ? 4 : 3;
  JavaEscape escape{static_cast<uint32_t>(e - '0'), 2};
  while (escape.length < max && at + escape.length < s.size() && s[at + escape.length] >= '0' &&
         s[at + escape.length] <= '7') {
    escape.value = escape.value * 8 + static_cast<uint32_t>(s[at + escape.length] - '0');
    ++escape.length;
  }
  return escape;
}

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_JAVA_ESCAPE_H_
