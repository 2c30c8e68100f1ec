// Escaping untrusted text for the reports; see escape.h.
#include "agent/report/escape.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace tracespec::report {
namespace {

// Decodes the UTF-8 sequence at text[i] into *code and returns its length,
// or 0 when it is not a valid one (overlong forms, surrogates and code
// points above U+10FFFF are invalid).
size_t DecodeUtf8(absl::string_view text, size_t i, unsigned int* code) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  size_t n;
  unsigned int min;
  if (c < 0x80) {
    *code = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) {
    n = 2, min = 0x80, *code = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, min = 0x800, *code = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, min = 0x10000, *code = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    unsigned char next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) return 0;
    *code = (*code << 6) | (next & 0x3F);
  }
  if (*code < min || *code > 0x10FFFF || (*code >= 0xD800 && *code <= 0xDFFF)) return 0;
  return n;
}

size_t LongestBacktickRun(absl::string_view text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string Printable(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned int code = 0;
    size_t n = DecodeUtf8(text, i, &code);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    // C0 and C1 control characters and DEL, except newline and tab.
    bool control = (code < 0x20 && code != '\n' && code != '\t') || (code >= 0x7F && code <= 0x9F);
    if (control) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", code);
      out += buffer;
    } else {
      out.append(text.data() + i, n);
    }
    i += n;
  }
  return out;
}

std::string HtmlEscape(absl::string_view text) {
  std::string out;
  for (char c : Printable(text)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string MarkdownCode(absl::string_view text) {
  std::string line = Printable(text);
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::string fence(LongestBacktickRun(line) + 1, '`');
  // A space on each side keeps a leading or trailing backtick inside, and
  // CommonMark strips exactly one space from each side.
  return absl::StrCat(fence, " ", line, " ", fence);
}

std::string MarkdownText(absl::string_view text) {
  std::string line = Printable(text);
  std::replace(line.begin(), line.end(), '\n', ' ');
  std::replace(line.begin(), line.end(), '\t', ' ');
  size_t begin = line.find_first_not_of(' ');
  line = begin == std::string::npos ? "" : line.substr(begin);
  std::string out;
  out.reserve(line.size() + line.size() / 8);
  // What would open a block at the start of the line: a heading, a list
  // item, a setext underline, a thematic break, an ordered list ("1." "1)").
  size_t digits = 0;
  while (digits < line.size() && absl::ascii_isdigit(line[digits])) ++digits;
  bool ordered = digits > 0 && digits < line.size() && (line[digits] == '.' || line[digits] == ')') &&
                 (digits + 1 == line.size() || line[digits + 1] == ' ');
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    bool inline_markup = absl::string_view("\\`*_[]<>!|~&").find(c) != absl::string_view::npos;
    bool block_start = (i == 0 && absl::string_view("#+-=").find(c) != absl::string_view::npos) ||
                       (ordered && i == digits);
    if (inline_markup || block_start) out += '\\';
    out += c;
  }
  return out;
}

std::string MarkdownBlock(absl::string_view text, absl::string_view info) {
  std::string body = Printable(text);
  if (!body.empty() && body.back() != '\n') body += '\n';
  std::string fence(std::max<size_t>(3, LongestBacktickRun(body) + 1), '`');
  return absl::StrCat(fence, info, "\n", body, fence, "\n");
}

}  // namespace tracespec::report
