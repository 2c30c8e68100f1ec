// Egress policy loading and URL matching; see egress_policy.h.
#include "agent/gateway/egress_policy.h"

#include <algorithm>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "agent/gateway/secret_scanner.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "re2/re2.h"

namespace tracespec::gateway {
namespace {

int DefaultPort(absl::string_view scheme) { return scheme == "https" ? 443 : 80; }

// The 1-based line of the first occurrence of `needle` in `text` (0 if none),
// to point policy errors at the entry they are about.
int LineOf(const std::string& text, absl::string_view needle) {
  size_t at = text.find(std::string(needle));
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

std::string Quoted(absl::string_view value) { return absl::StrCat("\"", value, "\""); }

bool IsRuleId(absl::string_view id) {
  if (id.empty()) return false;
  for (char c : id) {
    if (!(absl::ascii_islower(c) || absl::ascii_isdigit(c) || c == '-')) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<Url> ParseUrl(absl::string_view text) {
  auto bad = [&text](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("url \"", text, "\": ", why));
  };
  size_t sep = text.find("://");
  if (sep == absl::string_view::npos) return bad("expected scheme://host");
  Url url;
  url.scheme = absl::AsciiStrToLower(text.substr(0, sep));
  if (url.scheme != "http" && url.scheme != "https") return bad("only http and https are allowed");
  absl::string_view rest = text.substr(sep + 3);
  size_t path_start = rest.find_first_of("/?#");
  absl::string_view authority = rest.substr(0, path_start);
  absl::string_view path = path_start == absl::string_view::npos ? "" : rest.substr(path_start);
  if (authority.find('@') != absl::string_view::npos) {
    // Said without the URL, which holds the credentials.
    return absl::InvalidArgumentError("url: credentials in a URL are not allowed");
  }
  absl::string_view host = authority;
  absl::string_view port;
  if (absl::StartsWith(authority, "[")) {
    size_t close = authority.find(']');
    if (close == absl::string_view::npos) return bad("unterminated IPv6 address");
    host = authority.substr(1, close - 1);
    absl::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return bad("unexpected text after the IPv6 address");
      port = after.substr(1);
    }
  } else {
    size_t colon = authority.rfind(':');
    if (colon != absl::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
    }
  }
  if (host.empty()) return bad("no host");
  url.host = absl::AsciiStrToLower(host);
  url.port = DefaultPort(url.scheme);
  if (!port.empty() && (!absl::SimpleAtoi(port, &url.port) || url.port <= 0 || url.port > 65535)) {
    return bad("bad port");
  }
  size_t query = path.find_first_of("?#");
  url.path = std::string(path.substr(0, query));
  if (url.path.empty()) url.path = "/";
  for (absl::string_view segment : absl::StrSplit(url.path, '/')) {
    if (segment == ".." || segment == "." ||
        absl::StrContains(absl::AsciiStrToLower(segment), "%2e")) {
      return bad("dot segments are not allowed in the path");
    }
  }
  return url;
}

bool EndpointAllows(const v1::Endpoint& endpoint, const Url& url) {
  if (absl::AsciiStrToLower(endpoint.scheme()) != url.scheme) return false;
  if (absl::AsciiStrToLower(endpoint.host()) != url.host) return false;
  if (!endpoint.any_port()) {
    int port = endpoint.port() == 0 ? DefaultPort(url.scheme) : endpoint.port();
    if (port != url.port) return false;
  }
  absl::string_view prefix = endpoint.path_prefix();
  if (prefix.empty() || prefix == "/") return true;
  if (!absl::StartsWith(url.path, prefix)) return false;
  return url.path.size() == prefix.size() || prefix.back() == '/' || url.path[prefix.size()] == '/';
}

absl::StatusOr<v1::EgressPolicy> ParseEgressPolicy(const std::string& text,
                                                   const std::string& name) {
  v1::EgressPolicy policy;
  TS_RETURN_IF_ERROR(ParseTextProto(text, name, &policy));
  TS_RETURN_IF_ERROR(CheckFormatVersion(
      policy.format_version(), Located(name, LineOf(text, "format_version"), 0, "egress policy")));
  auto error = [&](absl::string_view needle, absl::string_view message) {
    return InputError(name, LineOf(text, needle), 0, message);
  };
  for (const v1::Endpoint& e : policy.allow()) {
    std::string scheme = absl::AsciiStrToLower(e.scheme());
    if (scheme != "http" && scheme != "https") {
      return error(Quoted(e.scheme()),
                   absl::StrCat("allow: scheme ", Quoted(e.scheme()), " is not http or https"));
    }
    if (e.host().empty()) return error("allow", "allow: an endpoint needs a host");
    if (e.host().find_first_of("*?/@ ") != std::string::npos) {
      return error(Quoted(e.host()), absl::StrCat("allow: host ", Quoted(e.host()),
                                                  " must be a plain name or address"));
    }
    if (e.port() < 0 || e.port() > 65535) {
      return error(absl::StrCat("port: ", e.port()), "allow: port out of range");
    }
    if (!e.path_prefix().empty() && e.path_prefix()[0] != '/') {
      return error(Quoted(e.path_prefix()), "allow: path_prefix must start with '/'");
    }
  }
  if (policy.max_payload_bytes() < 0) {
    return error("max_payload_bytes", "max_payload_bytes must not be negative");
  }
  if (policy.generic_secret_min_entropy() < 0) {
    return error("generic_secret_min_entropy", "generic_secret_min_entropy must not be negative");
  }
  const v1::FingerprintSettings& f = policy.fingerprint();
  if (f.k() < 0 || f.window() < 0 || f.min_matched_tokens() < 0 || f.k() == 1) {
    return error("fingerprint", "fingerprint: k must be at least 2, and no value negative");
  }
  int k = f.k() == 0 ? 10 : f.k();
  int window = f.window() == 0 ? 6 : f.window();
  if (window > k) {
    return error("window", "fingerprint: window must not exceed k (runs must stay contiguous)");
  }
  std::set<std::string> ids;
  for (const std::string& id : SecretScanner::BuiltinRuleIds()) ids.insert(id);
  for (const v1::SecretRule& rule : policy.secret_rules()) {
    if (!IsRuleId(rule.id())) {
      return error(Quoted(rule.id()),
                   absl::StrCat("secret_rules: id ", Quoted(rule.id()), " must match [a-z0-9-]+"));
    }
    if (!ids.insert(rule.id()).second) {
      return error(Quoted(rule.id()),
                   absl::StrCat("secret_rules: duplicate id ", Quoted(rule.id())));
    }
    RE2 re(rule.regex(), RE2::Quiet);
    if (!re.ok()) {
      return error(Quoted(rule.id()), absl::StrCat("secret_rules ", Quoted(rule.id()),
                                                   ": regex does not compile: ", re.error()));
    }
    if (rule.secret_group() < 0 || rule.secret_group() > re.NumberOfCapturingGroups()) {
      return error(Quoted(rule.id()),
                   absl::StrCat("secret_rules ", Quoted(rule.id()), ": secret_group ",
                                rule.secret_group(), " does not exist in the regex"));
    }
    if (rule.min_entropy() < 0) {
      return error(Quoted(rule.id()), absl::StrCat("secret_rules ", Quoted(rule.id()),
                                                   ": min_entropy must not be negative"));
    }
  }
  std::vector<std::string> builtin = SecretScanner::BuiltinRuleIds();
  for (const std::string& id : policy.disabled_secret_rules()) {
    if (std::find(builtin.begin(), builtin.end(), id) == builtin.end()) {
      return error(Quoted(id),
                   absl::StrCat("disabled_secret_rules: ", Quoted(id), " is not a built-in rule"));
    }
  }
  for (const std::string& term : policy.blocked_terms()) {
    if (absl::StripAsciiWhitespace(term).empty()) {
      return error("blocked_terms", "blocked_terms: empty term");
    }
  }
  return policy;
}

absl::StatusOr<v1::EgressPolicy> LoadEgressPolicy(const std::string& path) {
  TS_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return ParseEgressPolicy(text, path);
}

}  // namespace tracespec::gateway
