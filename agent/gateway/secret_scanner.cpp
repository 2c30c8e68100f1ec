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
    // Provider formats, written from each provider's documented token
    // shape: a fixed prefix and a body of known alphabet and length.
    {"stripe-secret-key", R"((?:^|[^A-Za-z0-9_])((?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{20,99}))", 1, 0, false},
    {"stripe-webhook-secret", R"((?:^|[^A-Za-z0-9_])(whsec_[A-Za-z0-9]{32,}))", 1, 0, false},
    {"twilio-api-key", R"((?:^|[^A-Za-z0-9_])(SK[0-9a-f]{32})(?:[^A-Za-z0-9_]|$))", 1, 0, false},
    {"sendgrid-api-key", R"((SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}))", 1, 0, false},
    {"mailgun-api-key", R"((?:^|[^A-Za-z0-9_])(key-[0-9a-f]{32})(?:[^A-Za-z0-9_]|$))", 1, 0, false},
    {"mailchimp-api-key", R"((?:^|[^A-Za-z0-9_])([0-9a-f]{32}-us[0-9]{1,2})(?:[^A-Za-z0-9_]|$))", 1, 0, false},
    {"azure-storage-account-key", R"((?i)AccountKey=([A-Za-z0-9+/]{86}==))", 1, 0, false},
    {"azure-shared-access-key", R"((?i)SharedAccessKey=([A-Za-z0-9+/]{42,44}=))", 1, 0, false},
    {"azure-ad-client-secret",
     R"((?:^|[^A-Za-z0-9_~.-])([A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})(?:[^A-Za-z0-9_~.-]|$))",
     1, 0, false},
    {"gcp-service-account",
     R"(\\?"type\\?"\s*:\s*\\?"(service_account)\\?")", 1, 0, false},
    {"gcp-service-account-key-id", R"(\\?"private_key_id\\?"\s*:\s*\\?"([0-9a-f]{40})\\?")", 1, 0,
     false},
    {"gcp-oauth-client-secret", R"((GOCSPX-[A-Za-z0-9_-]{28}))", 1, 0, false},
    {"google-oauth-access-token", R"((?:^|[^A-Za-z0-9_])(ya29\.[0-9A-Za-z_-]{30,}))", 1, 0, false},
    {"npm-access-token", R"((?:^|[^A-Za-z0-9_])(npm_[A-Za-z0-9]{36})(?:[^A-Za-z0-9_]|$))", 1, 0, false},
    {"pypi-upload-token", R"((pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}))", 1, 0, false},
    {"rubygems-api-key", R"((rubygems_[a-f0-9]{48}))", 1, 0, false},
    {"nuget-api-key", R"((?:^|[^A-Za-z0-9_])(oy2[a-z0-9]{43})(?:[^A-Za-z0-9_]|$))", 1, 0, false},
    {"dockerhub-pat", R"((dckr_pat_[A-Za-z0-9_-]{27}))", 1, 0, false},
    {"shopify-token", R"((shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}))", 1, 0, false},
    {"square-access-token", R"((?:^|[^A-Za-z0-9_])((?:EAAA|sq0atp-)[0-9A-Za-z_-]{22,60}))", 1, 0, false},
    {"square-oauth-secret", R"((sq0csp-[0-9A-Za-z_-]{43}))", 1, 0, false},
    {"gitlab-token", R"((gl(?:pat|dt|rt|ptt|soat|cbt|imt|agent|oas)-[0-9A-Za-z_-]{20,}))", 1, 0, false},
    {"atlassian-api-token", R"((ATATT3[A-Za-z0-9_=-]{100,}))", 1, 0, false},
    {"digitalocean-token", R"((do[opr]_v1_[a-f0-9]{64}))", 1, 0, false},
    {"heroku-api-key",
     R"((?i)heroku.{0,20}[=:"'\s]\s*["']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}))",
     1, 0, false},
    {"hashicorp-vault-token", R"((?:^|[^A-Za-z0-9_])(hv[sb]\.[A-Za-z0-9_-]{90,}))", 1, 0, false},
    {"terraform-cloud-token", R"(([A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}))", 1, 0, false},
    {"doppler-token", R"((dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}))", 1, 0, false},
    {"dropbox-token", R"((?:^|[^A-Za-z0-9_])(sl\.[A-Za-z0-9_-]{130,}))", 1, 0, false},
    {"discord-bot-token",
     R"((?:^|[^A-Za-z0-9_])([MN][A-Za-z0-9]{23}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}))", 1, 0,
     false},
    {"telegram-bot-token", R"((?:^|[^0-9])([0-9]{8,10}:AA[0-9A-Za-z_-]{33}))", 1, 0, false},
    {"facebook-access-token", R"((?:^|[^A-Za-z0-9_])(EAA[BC][A-Za-z0-9]{80,}))", 1, 0, false},
    {"postman-api-key", R"((PMAK-[a-f0-9]{24}-[a-f0-9]{34}))", 1, 0, false},
    {"pulumi-token", R"((pul-[a-f0-9]{40}))", 1, 0, false},
    {"linear-api-key", R"((lin_api_[A-Za-z0-9]{40}))", 1, 0, false},
    {"anthropic-api-key", R"((sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{80,}))", 1, 0, false},
    {"huggingface-token", R"((?:^|[^A-Za-z0-9_])(hf_[A-Za-z]{34})(?:[^A-Za-z0-9_]|$))", 1, 0, false},
    {"databricks-token", R"((?:^|[^A-Za-z0-9_])(dapi[a-f0-9]{32}(?:-[0-9])?))", 1, 0, false},
    {"newrelic-user-key", R"((NRAK-[A-Z0-9]{27}))", 1, 0, false},
    {"sentry-token", R"((sntry[su]_[A-Za-z0-9+/=_]{40,}))", 1, 0, false},
    {"grafana-token", R"((glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}))", 1, 0,
     false},
    {"datadog-api-key",
     R"((?i)(?:datadog|\bdd).{0,20}(?:api|app).?key.{0,10}[=:"'\s]\s*["']?([a-f0-9]{32,40}))", 1, 0,
     false},
    {"cloudflare-api-token", R"((?i)cloudflare.{0,30}[=:"'\s]\s*["']?([A-Za-z0-9_-]{40})(?:[^A-Za-z0-9_-]|$))",
     1, 3.0, false},
    {"age-secret-key", R"((AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}))", 1, 0, false},
    {"flyio-token", R"((fo1_[A-Za-z0-9_-]{43}))", 1, 0, false},
    {"planetscale-token", R"((pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,64}))", 1, 0, false},
    {"shippo-api-token", R"((shippo_(?:live|test)_[a-f0-9]{40}))", 1, 0, false},
    {"alibaba-access-key-id", R"((?:^|[^A-Za-z0-9_])(LTAI[A-Za-z0-9]{20})(?:[^A-Za-z0-9_]|$))", 1, 0,
     false},
    {"easypost-api-key", R"((EZ[AT]K[A-Za-z0-9]{54}))", 1, 0, false},
    {"mapbox-secret-token", R"((sk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{22}))", 1, 0, false},
    {"airtable-pat", R"((pat[A-Za-z0-9]{14}\.[a-f0-9]{64}))", 1, 0, false},
    // A long literal of token characters with the entropy of random data:
    // base64 or alphanumerics, 32 or more, mixing letters and digits.
    {"high-entropy-literal", R"(["'`]([A-Za-z0-9+/=_-]{32,512})["'`])", 1, 4.3, true},
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

FoldedText FoldStringConcatenations(absl::string_view text) {
  FoldedText folded;
  folded.text.reserve(text.size());
  auto skip_blank = [&text](size_t i) {
    // Blanks and comments between a literal, '+' and the next literal.
    while (i < text.size()) {
      if (absl::ascii_isspace(static_cast<unsigned char>(text[i]))) {
        ++i;
      } else if (text.substr(i, 2) == "//") {
        size_t nl = text.find('\n', i);
        i = nl == absl::string_view::npos ? text.size() : nl + 1;
      } else if (text.substr(i, 2) == "/*") {
        size_t close = text.find("*/", i + 2);
        if (close == absl::string_view::npos) return text.size();
        i = close + 2;
      } else {
        break;
      }
    }
    return i;
  };
  auto keep = [&folded, &text](size_t i) {
    folded.text.push_back(text[i]);
    folded.origin.push_back(i);
  };
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '"') {
      keep(i++);
      continue;
    }
    // A string literal: copy it up to its closing quote, then as long as
    // `+ "..."` follows, drop the quotes and the operator between.
    keep(i++);
    while (i < text.size()) {
      if (text[i] == '\\' && i + 1 < text.size()) {
        keep(i++);
        keep(i++);
        continue;
      }
      if (text[i] == '\n') break;  // not a Java literal after all
      if (text[i] != '"') {
        keep(i++);
        continue;
      }
      size_t plus = skip_blank(i + 1);
      if (plus < text.size() && text[plus] == '+') {
        size_t next = skip_blank(plus + 1);
        if (next < text.size() && text[next] == '"') {
          i = next + 1;
          folded.joins++;
          continue;
        }
      }
      keep(i++);  // the closing quote
      break;
    }
  }
  return folded;
}

std::vector<SecretMatch> SecretScanner::Scan(absl::string_view text) const {
  std::vector<SecretMatch> out = ScanPlain(text);
  // `"AKIAQWERTY" + "UIOPASDFGH"` is one constant to javac: scan the text
  // with compile-time concatenations folded, and map matches back.
  FoldedText folded = FoldStringConcatenations(text);
  if (folded.joins > 0) {
    for (const SecretMatch& m : ScanPlain(folded.text)) {
      if (m.end <= m.begin) continue;
      SecretMatch mapped{m.rule_id, folded.origin[m.begin], folded.origin[m.end - 1] + 1};
      bool known = std::any_of(out.begin(), out.end(), [&mapped](const SecretMatch& o) {
        return o.rule_id == mapped.rule_id && o.begin == mapped.begin && o.end == mapped.end;
      });
      if (!known) out.push_back(std::move(mapped));
    }
    std::sort(out.begin(), out.end(), [](const SecretMatch& a, const SecretMatch& b) {
      return std::tie(a.begin, a.end, a.rule_id) < std::tie(b.begin, b.end, b.rule_id);
    });
  }
  return out;
}

std::vector<SecretMatch> SecretScanner::ScanPlain(absl::string_view text) const {
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
