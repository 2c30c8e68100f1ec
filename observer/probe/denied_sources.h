// The environment variables and system properties a policy denies
// (RedactionPolicy.deny_env, deny_property): which are set, and the
// substitute the substituted runs of `observe --noninterference` give
// them. Plain C++ without dependencies (but common/glob.h and
// common/utf8.h), so that it is unit-tested without a JVM; the probe reads
// and replaces them at JVM start (agent.cpp).
#ifndef TRACESPEC_OBSERVER_PROBE_DENIED_SOURCES_H_
#define TRACESPEC_OBSERVER_PROBE_DENIED_SOURCES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/glob.h"

namespace tracespec::probe {

// Whether one of `patterns` (globs on the whole name, case-insensitive)
// names `name`.
template <typename Patterns>
bool DeniesSourceName(const Patterns& patterns, std::string_view name) {
  for (const auto& pattern : patterns) {
    if (GlobMatch(pattern, name, /*ignore_case=*/true)) return true;
  }
  return false;
}

// The entries of `environment` ("NAME=VALUE" strings, as `environ` holds
// them; null-terminated) whose names `patterns` deny, as (name, value),
// sorted by name. An entry without '=' is skipped.
std::vector<std::pair<std::string, std::string>> DeniedEnvironment(
    const std::vector<std::string>& patterns, char* const* environment);

// The substitute of a UTF-8 text (an environment variable's value):
// SubstituteText of its UTF-16 code units, as UTF-8 again. Same length in
// characters, same character classes; deterministic in (seed, text).
std::string SubstituteUtf8(uint64_t seed, const std::string& utf8);

// Whether `text` is a decimal integer that fits in 64 bits ("-42",
// "48213"), and its value: a secret held as text that programs parse.
bool ParseDecimal(std::string_view text, int64_t* value);

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_DENIED_SOURCES_H_
