// Secret rules over RE2; see secret_scanner.h.
#include "agent/gateway/secret_scanner.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "agent/gateway/egress_policy.h"
#include "re2/re2.h"

namespace tracespec::gateway {

struct SecretScanner::Rule {
  std::string id;
  std::unique_ptr<RE2> regex;
  int group = 0;
  double min_entropy = 0;
  // The secret must contain a digit (keeps identifiers such as
  // `tokenizerConfiguration` from counting as values of the generic rule).
  bool needs_digit = false;
};

namespace {

struct BuiltinRule {
  const char* id;
  const char* regex;
  int group;
  double min_entropy;  // < 0: the policy's generic threshold
  bool needs_digit;
};

// Word boundaries are spelled out as (?:^|[^A-Za-z0-9_]) ... where RE2's \b
// would treat '-' wrongly for the token alphabets involved.
const BuiltinRule kBuiltinRules[] = {
    {"aws-access-key-id",
     R"((?:^|[^A-Za-z0-9])((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA)[A-Z0-9]{16})(?:[^A-Za-z0-9]|$))",
     1, 0, false},
    {"aws-secret-access-key",
     R"((?i)aws.{0,20}(?:secret|private).{0,20}[=:"'\s]\s*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+]|$))",
     1, 3.5, false},
    {"private-key", R"(-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----)", 0, 0, false},
    {"github-token", R"((?:^|[^A-Za-z0-9_])(gh[pousr]_[A-Za-z0-9]{36,255}))", 1, 0, false},
    {"github-fine-grained-token", R"((github_pat_[A-Za-z0-9_]{22,255}))", 1, 0, false},
    {"slack-token", R"((?:^|[^A-Za-z0-9])(xox[abposr]-[A-Za-z0-9-]{10,250}))", 1, 0, false},
    {"slack-webhook", R"((hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/+-]{20,}))", 1, 0,
     false},
    {"openai-api-key", R"((?:^|[^A-Za-z0-9_-])(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}))",
     1, 3.0, false},
    {"google-api-key", R"((?:^|[^A-Za-z0-9_])(AIza[0-9A-Za-z_-]{35}))", 1, 0, false},
    {"jwt",
     R"((?:^|[^A-Za-z0-9_-])(eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}))", 1, 0,
     false},
    {"url-credentials", R"([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@"']{1,64}:([^/\s:@"']{3,128})@)", 1, 0,
     false},
    // name (containing key/secret/token/password/...) = value, the value
    // ending at a quote, blank, ';', ',' or end of text: so `key =
    // compute(...)` and other code do not match.
    {"generic-assignment",
     R"((?i)[a-z0-9_.-]*(?:key|secret|token|passwd|password|pwd|credential|auth)[a-z0-9_.-]*["']?\s*(?::=|=>|==|=|:)\s*["'`]?([A-Za-z0-9+/=_.~-]{16,256})(?:["'`\s;,)]|$))",
     1, -1, true},
};

}  // namespace

double ShannonEntropy(absl::string_view text) {
  if (text.empty()) return 0;
  size_t counts[256] = {0};
  for (unsigned char c : text) ++counts[c];
  double entropy = 0;
  double n = static_cast<double>(text.size());
  for (size_t count : counts) {
    if (count == 0) continue;
    double p = static_cast<double>(count) / n;
    entropy -= p * std::log2(p);
  }
  return entropy;
}

std::vector<std::string> SecretScanner::BuiltinRuleIds() {
  std::vector<std::string> ids;
  for (const BuiltinRule& rule : kBuiltinRules) ids.push_back(rule.id);
  return ids;
}

absl::StatusOr<SecretScanner> SecretScanner::Create(const v1::EgressPolicy& policy) {
  SecretScanner scanner;
  double generic = policy.generic_secret_min_entropy() > 0 ? policy.generic_secret_min_entropy()
                                                           : kDefaultGenericSecretEntropy;
  auto add = [&scanner](const std::string& id, const std::string& regex, int group,
                        double min_entropy, bool needs_digit) -> absl::Status {
    auto rule = std::make_shared<Rule>();
    rule->id = id;
    rule->regex = std::make_unique<RE2>(regex, RE2::Quiet);
    if (!rule->regex->ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("secret rule \"", id, "\": regex does not compile: ", rule->regex->error()));
    }
    if (group < 0 || group > rule->regex->NumberOfCapturingGroups()) {
      return absl::InvalidArgumentError(
          absl::StrCat("secret rule \"", id, "\": no capture group ", group));
    }
    rule->group = group;
    rule->min_entropy = min_entropy;
    rule->needs_digit = needs_digit;
    scanner.rules_.push_back(std::move(rule));
    return absl::OkStatus();
  };
  for (const BuiltinRule& b : kBuiltinRules) {
    const auto& disabled = policy.disabled_secret_rules();
    if (std::find(disabled.begin(), disabled.end(), b.id) != disabled.end()) continue;
    absl::Status s =
        add(b.id, b.regex, b.group, b.min_entropy < 0 ? generic : b.min_entropy, b.needs_digit);
    if (!s.ok()) return s;
  }
  for (const v1::SecretRule& r : policy.secret_rules()) {
    absl::Status s = add(r.id(), r.regex(), r.secret_group(), r.min_entropy(), false);
    if (!s.ok()) return s;
  }
  return scanner;
}

std::vector<SecretMatch> SecretScanner::Scan(absl::string_view text) const {
  std::vector<SecretMatch> out;
  re2::StringPiece input(text.data(), text.size());
  for (const auto& rule : rules_) {
    int groups = rule->regex->NumberOfCapturingGroups() + 1;
    std::vector<re2::StringPiece> match(groups);
    size_t pos = 0;
    while (pos <= text.size() &&
           rule->regex->Match(input, pos, text.size(), RE2::UNANCHORED, match.data(), groups)) {
      const re2::StringPiece& whole = match[0];
      const re2::StringPiece& secret = match[rule->group];
      size_t whole_end = static_cast<size_t>(whole.data() - text.data()) + whole.size();
      // Continue after the secret (a rule's trailing context may start the
      // next match) but always move forward.
      size_t next = whole.empty() ? pos + 1 : whole_end;
      if (secret.data() != nullptr) {
        absl::string_view value(secret.data(), secret.size());
        size_t begin = static_cast<size_t>(secret.data() - text.data());
        next = std::max(pos + 1, std::min(next, begin + secret.size()));
        bool digit_ok = !rule->needs_digit || std::any_of(value.begin(), value.end(), [](char c) {
          return absl::ascii_isdigit(c);
        });
        if (!value.empty() && digit_ok && ShannonEntropy(value) >= rule->min_entropy) {
          out.push_back({rule->id, begin, begin + value.size()});
        }
      }
      pos = next;
    }
  }
  std::sort(out.begin(), out.end(), [](const SecretMatch& a, const SecretMatch& b) {
    return std::tie(a.begin, a.end, a.rule_id) < std::tie(b.begin, b.end, b.rule_id);
  });
  return out;
}

}  // namespace tracespec::gateway
