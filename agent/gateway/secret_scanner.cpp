// Secret rules over RE2; see secret_scanner.h.
#include "agent/gateway/secret_scanner.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"
#include "absl/strings/str_cat.h"
#include "agent/gateway/egress_policy.h"
#include "common/java_escape.h"
#include "common/utf8.h"
#include "re2/re2.h"

namespace tracespec::gateway {

namespace {

// Where in Java source a rule's match must lie.
enum class Place {
  kAnywhere,
  kComment,        // inside a `//` or `/* */` comment
  kInsideLiteral,  // inside a string literal or text block that holds more
};

}  // namespace

struct SecretScanner::Rule {
  std::string id;
  std::unique_ptr<RE2> regex;
  int group = 0;
  double min_entropy = 0;
  // The secret must contain a digit (keeps identifiers such as
  // `tokenizerConfiguration` from counting as values of the generic rule).
  bool needs_digit = false;
  Place place = Place::kAnywhere;
  // A further test of the secret's shape; null: none.
  bool (*accept)(absl::string_view secret) = nullptr;
};

namespace {

// The credentials of `Basic <base64>`: base64 of printable `user:password`.
bool IsBasicCredential(absl::string_view value) {
  std::string decoded;
  if (!absl::Base64Unescape(value, &decoded) || decoded.size() < 3) return false;
  size_t colon = decoded.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  return std::all_of(decoded.begin(), decoded.end(),
                     [](char c) { return c >= 0x20 && c < 0x7f; });
}

// A random-looking token, as opposed to the long words of ordinary code and
// prose: upper case letters, lower case letters and digits, two of each at
// least; not only hex digits and dashes (commit ids, digests, UUIDs); its
// runs of lower case letters short on average (under 3.5 letters: in a
// camelCase name such as `assertBalanceStaysPositive2` they are words); not
// a path of lower case words (`org/example/...`).
bool IsRandomLooking(absl::string_view value) {
  int upper = 0, lower = 0, digits = 0, lower_runs = 0;
  bool hex_only = true;
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    upper += absl::ascii_isupper(c) ? 1 : 0;
    digits += absl::ascii_isdigit(c) ? 1 : 0;
    if (absl::ascii_islower(c)) {
      ++lower;
      if (i == 0 || !absl::ascii_islower(value[i - 1])) ++lower_runs;
    }
    if (!absl::ascii_isxdigit(c) && c != '-') hex_only = false;
  }
  if (upper < 2 || lower < 2 || digits < 2 || hex_only) return false;
  if (2 * lower >= 7 * lower_runs) return false;
  int slashes = static_cast<int>(std::count(value.begin(), value.end(), '/'));
  if (slashes >= 2) {
    for (absl::string_view part : absl::StrSplit(value, '/')) {
      if (part.size() >= 3 &&
          std::all_of(part.begin(), part.end(), [](char c) { return absl::ascii_islower(c); })) {
        return false;
      }
    }
  }
  return true;
}

struct BuiltinRule {
  const char* id;
  const char* regex;
  int group;
  double min_entropy;  // < 0: the policy's generic threshold
  bool needs_digit;
  Place place = Place::kAnywhere;
  bool (*accept)(absl::string_view) = nullptr;
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
    // Credentials inside longer text: HTTP header values in a literal, a
    // comment or a log line. A value is long, has a digit and some entropy,
    // so prose ("the Bearer token is required") is not one.
    {"bearer-token",
     R"((?i)(?:^|[^A-Za-z0-9_-])bearer\s+([A-Za-z0-9._~+/-]{16,1000}=*))", 1, 3.0, true},
    {"basic-auth", R"((?i)(?:^|[^A-Za-z0-9_-])basic\s+([A-Za-z0-9+/]{8,1000}={0,2}))", 1, 0, false,
     Place::kAnywhere, IsBasicCredential},
    {"cookie-value",
     R"((?i)(?:^|[^A-Za-z0-9_-])(?:set-)?cookie\s*:\s*(?:[^\r\n"]*?[;,]\s*)?[A-Za-z0-9_.!#$%&*+^|~-]{1,64}=\s*([A-Za-z0-9%+/=._~:-]{16,1000}))",
     1, 3.0, true},
    {"api-key-header",
     R"((?i)(?:^|[^A-Za-z0-9_-])(?:x-[a-z0-9-]{0,40}(?:key|token|secret|auth|authorization|signature)|api-?key|auth-?token)\s*:\s*([A-Za-z0-9._~+/=-]{16,1000}))",
     1, 3.0, true},
    // A long literal of token characters with the entropy of random data:
    // base64 or alphanumerics, 32 or more, mixing letters and digits.
    {"high-entropy-literal", R"(["'`]([A-Za-z0-9+/=_-]{32,512})["'`])", 1, 4.3, true},
    // The same inside a longer literal or text block, and in a comment; the
    // token must look random (IsRandomLooking: mixed case and digits, not
    // only hex, so a commit id in a comment is not a secret).
    {"high-entropy-in-literal", R"((?:^|[^A-Za-z0-9+/=_-])([A-Za-z0-9+/_-]{32,512}={0,2}))", 1,
     4.3, true, Place::kInsideLiteral, IsRandomLooking},
    {"high-entropy-comment", R"((?:^|[^A-Za-z0-9+/=_-])([A-Za-z0-9+/_-]{32,512}={0,2}))", 1, 4.3,
     true, Place::kComment, IsRandomLooking},
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
                        double min_entropy, bool needs_digit, Place place = Place::kAnywhere,
                        bool (*accept)(absl::string_view) = nullptr) -> absl::Status {
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
    rule->place = place;
    rule->accept = accept;
    scanner.rules_.push_back(std::move(rule));
    return absl::OkStatus();
  };
  for (const BuiltinRule& b : kBuiltinRules) {
    const auto& disabled = policy.disabled_secret_rules();
    if (std::find(disabled.begin(), disabled.end(), b.id) != disabled.end()) continue;
    absl::Status s =
        add(b.id, b.regex, b.group, b.min_entropy < 0 ? generic : b.min_entropy, b.needs_digit,
            b.place, b.accept);
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

namespace {

// Text derived from an input, each byte with the input range it came from.
struct Mapped {
  std::string text;
  std::vector<size_t> begin, end;
  int changes = 0;

  void Put(absl::string_view bytes, size_t from, size_t to) {
    for (char c : bytes) {
      text.push_back(c);
      begin.push_back(from);
      end.push_back(to);
    }
  }
  void Keep(absl::string_view in, size_t i) { Put(in.substr(i, 1), i, i + 1); }
};

// A unicode escape `\u...uXXXX` at `i` (the backslash): its code unit and
// the index after it.
std::optional<std::pair<uint32_t, size_t>> UnicodeEscapeAt(absl::string_view in, size_t i) {
  if (i + 1 >= in.size() || in[i] != '\\' || in[i + 1] != 'u') return std::nullopt;
  size_t j = i + 1;
  while (j < in.size() && in[j] == 'u') ++j;
  if (j + 4 > in.size()) return std::nullopt;
  uint32_t unit = 0;
  for (size_t k = j; k < j + 4; ++k) {
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(in[k]))) return std::nullopt;
    char c = absl::ascii_tolower(in[k]);
    unit = unit * 16 + static_cast<uint32_t>(absl::ascii_isdigit(c) ? c - '0' : c - 'a' + 10);
  }
  return std::make_pair(unit, j + 4);
}

// JLS 3.3: a backslash preceded by an even run of backslashes starts a
// unicode escape; a surrogate pair of escapes is one character.
Mapped ResolveUnicodeEscapes(absl::string_view in) {
  Mapped out;
  size_t backslashes = 0;
  size_t i = 0;
  while (i < in.size()) {
    if (in[i] == '\\' && backslashes % 2 == 0) {
      if (auto escape = UnicodeEscapeAt(in, i)) {
        auto [unit, next] = *escape;
        if (unit >= 0xD800 && unit <= 0xDBFF) {
          auto low = UnicodeEscapeAt(in, next);
          if (low && low->first >= 0xDC00 && low->first <= 0xDFFF) {
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low->first - 0xDC00);
            next = low->second;
          }
        }
        std::string bytes;
        AppendUtf8(unit, &bytes);
        out.Put(bytes, i, next);
        out.changes++;
        backslashes = 0;
        i = next;
        continue;
      }
    }
    backslashes = in[i] == '\\' ? backslashes + 1 : 0;
    out.Keep(in, i++);
  }
  return out;
}

// Resolves the escape sequences of literal content `in` (JLS 3.10.7), each
// output byte mapped through `in`'s own origins.
void ResolveEscapes(const Mapped& in, Mapped* out) {
  const std::string& t = in.text;
  size_t j = 0;
  while (j < t.size()) {
    std::optional<JavaEscape> escape = JavaEscapeAt(t, j);
    if (!escape) {
      // Not an escape javac accepts: kept as written.
      out->Put(t.substr(j, 1), in.begin[j], in.end[j]);
      ++j;
      continue;
    }
    size_t len = escape->length;
    std::string value;
    if (!escape->line_continuation) AppendUtf8(escape->value, &value);
    out->Put(value, in.begin[j], in.end[j + len - 1]);
    out->changes++;
    j += len;
  }
}

Mapped Slice(const Mapped& in, size_t from, size_t to) {
  Mapped out;
  out.text = in.text.substr(from, to - from);
  out.begin.assign(in.begin.begin() + from, in.begin.begin() + to);
  out.end.assign(in.end.begin() + from, in.end.begin() + to);
  return out;
}

// The end of the text block opening at `i` (`"""`, blanks, a line break):
// the index of its closing `"""`, and where its content starts.
std::optional<std::pair<size_t, size_t>> TextBlockAt(absl::string_view t, size_t i) {
  if (t.substr(i, 3) != "\"\"\"") return std::nullopt;
  size_t j = i + 3;
  while (j < t.size() && (t[j] == ' ' || t[j] == '\t' || t[j] == '\f' || t[j] == '\r')) ++j;
  if (j >= t.size() || t[j] != '\n') return std::nullopt;
  size_t content = j + 1;
  for (size_t k = content; k < t.size(); ++k) {
    if (t[k] == '\\') {
      ++k;
    } else if (t.substr(k, 3) == "\"\"\"") {
      return std::make_pair(k, content);
    }
  }
  return std::nullopt;
}

// The closing quote of the string literal opening at `i` on the same line.
std::optional<size_t> StringEndAt(absl::string_view t, size_t i) {
  for (size_t k = i + 1; k < t.size() && t[k] != '\n'; ++k) {
    if (t[k] == '\\') {
      ++k;
    } else if (t[k] == '"') {
      return k;
    }
  }
  return std::nullopt;
}

// The closing quote of a char literal opening at `i` (`'x'`, `'\n'`,
// `'\101'`); an apostrophe of prose is none.
std::optional<size_t> CharEndAt(absl::string_view t, size_t i) {
  if (i + 2 < t.size() && t[i + 1] != '\\' && t[i + 1] != '\n' && t[i + 2] == '\'') return i + 2;
  if (i + 1 < t.size() && t[i + 1] == '\\') {
    for (size_t k = i + 3; k < t.size() && k <= i + 6; ++k) {
      if (t[k] == '\'') return k;
    }
  }
  return std::nullopt;
}

// JLS 3.10.6: the content lines of a text block without their incidental
// indentation (the least of the non-blank lines' and the closing line's)
// and trailing blanks.
Mapped StripIndentation(const Mapped& content) {
  std::vector<std::pair<size_t, size_t>> lines;
  size_t from = 0;
  for (size_t k = 0; k <= content.text.size(); ++k) {
    if (k == content.text.size() || content.text[k] == '\n') {
      lines.emplace_back(from, k);
      from = k + 1;
    }
  }
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\r'; };
  size_t indent = std::string::npos;
  for (size_t n = 0; n < lines.size(); ++n) {
    auto [b, e] = lines[n];
    size_t lead = b;
    while (lead < e && blank(content.text[lead])) ++lead;
    bool last = n + 1 == lines.size();
    if (lead == e && !last) continue;
    indent = std::min(indent, lead - b);
  }
  Mapped out;
  for (size_t n = 0; n < lines.size(); ++n) {
    auto [b, e] = lines[n];
    while (e > b && blank(content.text[e - 1])) --e;
    for (size_t k = std::min(b + indent, e); k < e; ++k) {
      out.Put(content.text.substr(k, 1), content.begin[k], content.end[k]);
    }
    if (n + 1 < lines.size()) {
      size_t nl = lines[n].second;
      out.Put("\n", content.begin[nl], content.end[nl]);
    }
  }
  return out;
}

// Resolves the literals of `in` (unicode escapes already resolved).
Mapped ResolveLiterals(const Mapped& in) {
  Mapped out;
  absl::string_view t = in.text;
  auto keep = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) out.Put(t.substr(k, 1), in.begin[k], in.end[k]);
  };
  size_t i = 0;
  while (i < t.size()) {
    if (auto block = TextBlockAt(t, i)) {
      auto [close, content] = *block;
      out.Put("\"", in.begin[i], in.end[content - 1]);
      ResolveEscapes(StripIndentation(Slice(in, content, close)), &out);
      out.Put("\"", in.begin[close], in.end[close + 2]);
      out.changes++;
      i = close + 3;
    } else if (t[i] == '"' || t[i] == '\'') {
      auto close = t[i] == '"' ? StringEndAt(t, i) : CharEndAt(t, i);
      if (!close) {
        keep(i, i + 1);
        ++i;
        continue;
      }
      keep(i, i + 1);
      ResolveEscapes(Slice(in, i + 1, *close), &out);
      keep(*close, *close + 1);
      i = *close + 1;
    } else {
      keep(i, i + 1);
      ++i;
    }
  }
  return out;
}

// Lexical place of every byte of `t`: code, comment, or literal content.
enum : char { kCode = 0, kInComment = 1, kInLiteral = 2 };
std::string LexicalPlaces(absl::string_view t) {
  std::string place(t.size(), kCode);
  auto mark = [&place](size_t from, size_t to, char what) {
    std::fill(place.begin() + from, place.begin() + std::min(to, place.size()), what);
  };
  size_t i = 0;
  while (i < t.size()) {
    if (t.substr(i, 2) == "//") {
      size_t nl = std::min(t.find('\n', i), t.size());
      mark(i, nl, kInComment);
      i = nl;
    } else if (t.substr(i, 2) == "/*") {
      size_t close = t.find("*/", i + 2);
      size_t to = close == absl::string_view::npos ? t.size() : close + 2;
      mark(i, to, kInComment);
      i = to;
    } else if (auto block = TextBlockAt(t, i)) {
      mark(block->second, block->first, kInLiteral);
      i = block->first + 3;
    } else if (t[i] == '"' || t[i] == '\'') {
      auto close = t[i] == '"' ? StringEndAt(t, i) : CharEndAt(t, i);
      if (close) mark(i + 1, *close, kInLiteral);
      i = close ? *close + 1 : i + 1;
    } else {
      ++i;
    }
  }
  return place;
}

void SortMatches(std::vector<SecretMatch>* matches) {
  std::sort(matches->begin(), matches->end(), [](const SecretMatch& a, const SecretMatch& b) {
    return std::tie(a.begin, a.end, a.rule_id) < std::tie(b.begin, b.end, b.rule_id);
  });
}

}  // namespace

DecodedText DecodeJavaSource(absl::string_view text) {
  // Unicode escapes first (they may even spell quotes), then concatenations
  // folded, then the literals' own escapes; origins composed back to `text`.
  Mapped unicode = ResolveUnicodeEscapes(text);
  FoldedText folded = FoldStringConcatenations(unicode.text);
  Mapped folded_mapped;
  folded_mapped.text = folded.text;
  for (size_t k = 0; k < folded.origin.size(); ++k) {
    folded_mapped.begin.push_back(unicode.begin[folded.origin[k]]);
    folded_mapped.end.push_back(unicode.end[folded.origin[k]]);
  }
  Mapped literals = ResolveLiterals(folded_mapped);
  DecodedText out;
  out.text = std::move(literals.text);
  out.origin = std::move(literals.begin);
  out.origin_end = std::move(literals.end);
  out.changes = unicode.changes + folded.joins + literals.changes;
  return out;
}

std::vector<SecretMatch> SecretScanner::Scan(absl::string_view text) const {
  std::vector<SecretMatch> out = ScanPlain(text);
  // `"AKIA\u0051..."`, `"AKIA" + "..."` or a text block are one constant to
  // javac: scan the source as javac reads it, and map matches back.
  DecodedText decoded = DecodeJavaSource(text);
  if (decoded.changes > 0) {
    for (const SecretMatch& m : ScanPlain(decoded.text)) {
      if (m.end <= m.begin) continue;
      SecretMatch mapped{m.rule_id, decoded.origin[m.begin], decoded.origin_end[m.end - 1]};
      bool known = std::any_of(out.begin(), out.end(), [&mapped](const SecretMatch& o) {
        return o.rule_id == mapped.rule_id && o.begin == mapped.begin && o.end == mapped.end;
      });
      if (!known) out.push_back(std::move(mapped));
    }
    SortMatches(&out);
  }
  return out;
}

std::vector<SecretMatch> SecretScanner::ScanPlain(absl::string_view text) const {
  std::vector<SecretMatch> out;
  re2::StringPiece input(text.data(), text.size());
  std::string places;  // computed once, for the first rule that needs them
  for (const auto& rule : rules_) {
    if (rule->place != Place::kAnywhere && places.empty()) places = LexicalPlaces(text);
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
        size_t end = begin + value.size();
        next = std::max(pos + 1, std::min(next, end));
        bool digit_ok = !rule->needs_digit || std::any_of(value.begin(), value.end(), [](char c) {
          return absl::ascii_isdigit(c);
        });
        bool place_ok = true;
        if (!value.empty() && rule->place == Place::kComment) {
          place_ok = places[begin] == kInComment && places[end - 1] == kInComment;
        } else if (!value.empty() && rule->place == Place::kInsideLiteral) {
          // Inside a literal that holds more than the token (the whole
          // literal is high-entropy-literal's).
          bool whole_literal = begin > 0 && end < text.size() && places[begin - 1] != kInLiteral &&
                               places[end] != kInLiteral;
          place_ok = places[begin] == kInLiteral && places[end - 1] == kInLiteral && !whole_literal;
        }
        if (!value.empty() && digit_ok && place_ok &&
            (rule->accept == nullptr || rule->accept(value)) &&
            ShannonEntropy(value) >= rule->min_entropy) {
          out.push_back({rule->id, begin, end});
        }
      }
      pos = next;
    }
  }
  SortMatches(&out);
  return out;
}

}  // namespace tracespec::gateway
