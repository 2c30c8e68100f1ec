// String disclosure by literal; see disclosure.h.
#include "agent/prompt/disclosure.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/java_escape.h"
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
      uint32_t cp = 0;
      if (s[j + 1] == 'u') {
        j += 2;
        while (j < s.size() && s[j] == 'u') ++j;
        int value = 0;
        for (int k = 0; k < 4 && j < s.size(); ++k, ++j) value = value * 16 + HexDigit(s[j]);
        cp = static_cast<uint32_t>(value);
      } else if (std::optional<JavaEscape> escape = JavaEscapeAt(std::string_view(s.data(), s.size()), j)) {
        j += escape->length;
        if (escape->line_continuation) continue;
        cp = escape->value;
      } else {
        cp = static_cast<unsigned char>(s[j + 1]);  // not an escape javac accepts
        j += 2;
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

std::set<std::string> JavaIntegerLiterals(absl::string_view s) {
  std::set<std::string> out;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
  size_t i = 0;
  while (i < s.size()) {
    if (!std::isdigit(static_cast<unsigned char>(s[i])) || (i > 0 && (ident(s[i - 1]) || s[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < s.size() && (ident(s[end]) || s[end] == '.')) ++end;
    std::string token(s.substr(i, end - i));
    bool negative = i > 0 && s[i - 1] == '-';
    i = end;
    token.erase(std::remove(token.begin(), token.end(), '_'), token.end());
    if (!token.empty() && (token.back() == 'L' || token.back() == 'l')) token.pop_back();
    int base = 10;
    size_t at = 0;
    if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
      base = 16;
      at = 2;
    } else if (token.size() > 2 && token[0] == '0' && (token[1] == 'b' || token[1] == 'B')) {
      base = 2;
      at = 2;
    } else if (token.size() > 1 && token[0] == '0') {
      base = 8;
      at = 1;
    }
    // The value as decimal digits, least significant first.
    std::vector<int> digits;
    bool valid = at < token.size();
    for (; at < token.size() && valid; ++at) {
      int d = HexDigit(token[at]);
      if (d < 0 || d >= base) {
        valid = false;  // a float, a suffix, an identifier
        break;
      }
      int carry = d;
      for (int& x : digits) {
        int v = x * base + carry;
        x = v % 10;
        carry = v / 10;
      }
      for (; carry > 0; carry /= 10) digits.push_back(carry % 10);
    }
    if (!valid) continue;
    std::string text;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) text.push_back(static_cast<char>('0' + *it));
    if (text.empty()) text = "0";
    out.insert(text);
    if (negative && text != "0") out.insert("-" + text);
  }
  return out;
}

StringDisclosure::StringDisclosure(v1::StringDisclosure mode,
                                   const std::vector<std::string>& test_texts)
    : mode_(mode == v1::STRING_DISCLOSURE_UNSPECIFIED ? v1::LITERALS_ONLY : mode) {
  if (mode_ != v1::LITERALS_ONLY) return;
  for (const std::string& text : test_texts) {
    for (const std::set<std::string>& found : {JavaStringLiterals(text), JavaIntegerLiterals(text)}) {
      literals_.insert(found.begin(), found.end());
    }
  }
}

bool StringDisclosure::Shown(const std::string& value, bool by_shape) const {
  if (value.empty() || mode_ == v1::ALL) return true;
  if (mode_ == v1::NONE || by_shape) return false;
  return literals_.count(value) != 0;
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

std::string StringDisclosure::Held(const HeldText& held, bool by_shape) {
  if (held.complete && Shown(held.text, by_shape)) return "";
  // A partial text is equal to another only with the same recorded part
  // and size.
  std::string key = held.complete ? held.text : absl::StrCat("\x01", held.size, "\x01", held.text);
  auto [it, added] = aliases_.emplace(std::make_pair(held.kind, key), 0);
  if (added) it->second = ++next_[held.kind];
  std::string alias = absl::StrCat("<", std::string(1, held.kind), it->second, ": ", held.type);
  if (!held.unit.empty()) {
    absl::StrAppend(&alias, ", ", held.size, " ", held.unit, held.size == 1 ? "" : "s");
  }
  alias += ">";
  if (held.complete) rendered_.emplace(held.text, alias);
  return alias;
}

std::string StringDisclosure::String(const std::string& value, bool by_shape) {
  return Held(StringText(value), by_shape);
}

std::string StringDisclosure::Chars(const std::string& value, int units, bool by_shape) {
  HeldText held = StringText(value);
  held.kind = 'c';
  held.type = "char[]";
  held.size = units;
  return Held(held, by_shape);
}

}  // namespace tracespec::prompt
