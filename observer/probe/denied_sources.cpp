#include "observer/probe/denied_sources.h"

#include <algorithm>
#include <charconv>

#include "common/utf8.h"
#include "observer/probe/substitute_value.h"

namespace tracespec::probe {

std::vector<std::pair<std::string, std::string>> DeniedEnvironment(
    const std::vector<std::string>& patterns, char* const* environment) {
  std::vector<std::pair<std::string, std::string>> denied;
  if (patterns.empty() || environment == nullptr) return denied;
  for (char* const* entry = environment; *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    size_t equals = text.find('=');
    if (equals == std::string_view::npos || equals == 0) continue;
    std::string_view name = text.substr(0, equals);
    if (!DeniesSourceName(patterns, name)) continue;
    denied.emplace_back(std::string(name), std::string(text.substr(equals + 1)));
  }
  std::sort(denied.begin(), denied.end());
  return denied;
}

std::string SubstituteUtf8(uint64_t seed, const std::string& utf8) {
  std::u16string units = Utf8ToUtf16(utf8);
  std::vector<uint16_t> text(units.begin(), units.end());
  std::vector<uint16_t> out = SubstituteText(seed, text);
  return Utf16ToUtf8(out.data(), out.size());
}

bool ParseDecimal(std::string_view text, int64_t* value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  std::from_chars_result r = std::from_chars(text.data(), end, *value);
  return r.ec == std::errc() && r.ptr == end;
}

}  // namespace tracespec::probe
