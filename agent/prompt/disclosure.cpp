// String disclosure by literal; see disclosure.h.
#include "agent/prompt/disclosure.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/utf8.h"

namespace tracespec::prompt {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::set<std::string> JavaStringLiterals(absl::string_view s) {
  std::set<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '\'') {  // A char literal: skip it ('"' must not open a string).
      size_t j = i + 1;
      while (j < s.size() && s[j] != '\'' && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (s[i] != '"') {
      ++i;
      continue;
    }
    std::string text;
    uint32_t high = 0;  // A pending high surrogate from \uD8xx.
    size_t j = i + 1;
    bool closed = false;
    while (j < s.size() && s[j] != '\n') {
      char c = s[j];
      if (c == '"') {
        closed = true;
        break;
      }
      if (c != '\\' || j + 1 >= s.size()) {
        text.push_back(c);
        ++j;
        continue;
      }
      char e = s[j + 1];
      j += 2;
      uint32_t cp = 0;
      switch (e) {
        case 'n': cp = '\n'; break;
        case 't': cp = '\t'; break;
        case 'r': cp = '\r'; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 's': cp = ' '; break;
        case 'u': {
          while (j < s.size() && s[j] == 'u') ++j;
          int value = 0;
          for (int k = 0; k < 4 && j < s.size(); ++k, ++j) value = value * 16 + HexDigit(s[j]);
          cp = static_cast<uint32_t>(value);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            cp = static_cast<uint32_t>(e - '0');
            for (int k = 0; k < 2 && j < s.size() && s[j] >= '0' && s[j] <= '7' && cp < 040; ++k) {
              cp = cp * 8 + static_cast<uint32_t>(s[j++] - '0');
            }
          } else {
            cp = static_cast<unsigned char>(e);  // \" \\ \'
          }
      }
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        high = cp;
        continue;
      }
      if (cp >= 0xDC00 && cp <= 0xDFFF && high != 0) cp = 0x10000 + ((high - 0xD800) << 10) + (cp - 0xDC00);
      high = 0;
      AppendUtf8(cp, &text);
    }
    if (closed) out.insert(std::move(text));
    i = j + 1;
  }
  return out;
}

StringDisclosure::StringDisclosure(v1::StringDisclosure mode,
                                   const std::vector<std::string>& test_texts)
    : mode_(mode == v1::STRING_DISCLOSURE_UNSPECIFIED ? v1::LITERALS_ONLY : mode) {
  if (mode_ != v1::LITERALS_ONLY) return;
  for (const std::string& text : test_texts) {
    std::set<std::string> found = JavaStringLiterals(text);
    literals_.insert(found.begin(), found.end());
  }
}

bool StringDisclosure::Shown(const std::string& value, bool by_shape) const {
  if (value.empty() || mode_ == v1::ALL) return true;
  if (mode_ == v1::NONE || by_shape) return false;
  return literals_.count(value) != 0;
}

std::string StringDisclosure::Alias(char kind, const std::string& type, const std::string& value,
                                    int units) {
  auto [it, added] = aliases_.emplace(std::make_pair(kind, value), 0);
  if (added) it->second = ++next_[kind];
  std::string alias = absl::StrCat("<", std::string(1, kind), it->second, ": ", type, ", ", units,
                                   units == 1 ? " char>" : " chars>");
  rendered_.emplace(value, alias);
  return alias;
}

std::string StringDisclosure::MaskText(std::string text) const {
  std::vector<std::pair<std::string, std::string>> by_length(rendered_.begin(), rendered_.end());
  std::stable_sort(by_length.begin(), by_length.end(), [](const auto& a, const auto& b) {
    return a.first.size() > b.first.size();
  });
  for (const auto& [value, alias] : by_length) {
    if (value.size() < kMinMaskedLength) continue;
    for (size_t at = text.find(value); at != std::string::npos;
         at = text.find(value, at + alias.size())) {
      text.replace(at, value.size(), alias);
    }
  }
  return text;
}

std::string StringDisclosure::String(const std::string& value, bool by_shape) {
  if (Shown(value, by_shape)) return "";
  int units = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    auto c = static_cast<unsigned char>(value[i]);
    if ((c & 0xC0) != 0x80) units += c >= 0xF0 ? 2 : 1;  // Supplementary: two UTF-16 units.
  }
  return Alias('s', "String", value, units);
}

std::string StringDisclosure::Chars(const std::string& value, int units, bool by_shape) {
  if (Shown(value, by_shape)) return "";
  return Alias('c', "char[]", value, units);
}

}  // namespace tracespec::prompt
