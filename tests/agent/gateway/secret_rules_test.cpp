// Tests for the built-in rules of agent/gateway/secret_scanner.h, one case
// per provider rule: a positive sample (the provider's documented shape,
// filled with seeded random characters) the rule must find, and a negative
// one (the same shape one step off: too short, wrong alphabet or prefix)
// it must not. Samples are generated at run time, so this file holds no
// secret-shaped text for other scanners to trip on. Also: Java
// concatenations are folded, and real test sources are not secrets.
#include <filesystem>
#include <random>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "agent/gateway/secret_scanner.h"
#include "common/files.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::gateway {
namespace {

const char kLower[] = "abcdefghijklmnopqrstuvwxyz";
const char kUpper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const char kDigits[] = "0123456789";
const char kHex[] = "0123456789abcdef";

// Seeded random text over an alphabet; every sample mixes in a digit and a
// letter where the alphabet has both, as real tokens do.
class Sampler {
 public:
  explicit Sampler(unsigned seed) : rng_(seed) {}
  std::string Of(const std::string& alphabet, int n) {
    std::string out;
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    for (int i = 0; i < n; ++i) out += alphabet[pick(rng_)];
    return out;
  }
  std::string Alnum(int n) { return Of(std::string(kLower) + kUpper + kDigits, n); }
  std::string Hex(int n) { return Of(kHex, n); }
  std::string Url64(int n) { return Of(std::string(kLower) + kUpper + kDigits + "_-", n); }
  std::string B64(int n) { return Of(std::string(kLower) + kUpper + kDigits + "+/", n); }

 private:
  std::mt19937 rng_;
};

std::string Base64(const std::string& text) {
  std::string out;
  absl::Base64Escape(text, &out);
  return out;
}

// Built-in rules that are no provider's token format.
const std::set<std::string> kNotProviders = {
    "jwt",          "url-credentials",         "high-entropy-literal", "bearer-token",
    "basic-auth",   "cookie-value",            "api-key-header",       "high-entropy-in-literal",
    "high-entropy-comment"};

struct Case {
  std::string rule;
  std::string positive;  // the secret, found by `rule`
  std::string negative;  // a near miss, not found by `rule`
  std::string before = "value = ";
  std::string after = "\n";
};

std::vector<Case> Cases() {
  Sampler s(20261203);
  auto p = [](std::initializer_list<std::string> parts) {
    std::string out;
    for (const std::string& part : parts) out += part;
    return out;
  };
  std::string uuid = p({s.Hex(8), "-", s.Hex(4), "-", s.Hex(4), "-", s.Hex(4), "-", s.Hex(12)});
  std::vector<Case> cases = {
      {"aws-access-key-id", p({"AK", "IA", s.Of(std::string(kUpper) + kDigits, 16)}),
       p({"AK", "IA", s.Of(std::string(kUpper) + kDigits, 12)})},
      {"stripe-secret-key", p({"sk", "_live_", s.Alnum(24)}), p({"sk", "_live_", s.Alnum(12)})},
      {"stripe-webhook-secret", p({"wh", "sec_", s.Alnum(32)}), p({"wh", "sec_", s.Alnum(20)})},
      {"twilio-api-key", p({"S", "K", s.Hex(32)}), p({"S", "K", s.Hex(31), "z"})},
      {"sendgrid-api-key", p({"S", "G.", s.Url64(22), ".", s.Url64(43)}),
       p({"S", "G.", s.Url64(22), ".", s.Url64(30)})},
      {"mailgun-api-key", p({"ke", "y-", s.Hex(32)}), p({"ke", "y-", s.Hex(20)})},
      {"mailchimp-api-key", p({s.Hex(32), "-u", "s", "12"}), p({s.Hex(32), "-eu", "12"})},
      {"azure-storage-account-key", p({s.B64(86), "=="}), p({s.B64(60), "=="}),
       "DefaultEndpointsProtocol=https;AccountKey=", ";EndpointSuffix=core"},
      {"azure-shared-access-key", p({s.B64(43), "="}), p({s.B64(20), "="}),
       "Endpoint=sb://x.servicebus;SharedAccessKey=", ""},
      {"azure-ad-client-secret", p({s.Alnum(3), "7Q", "~", s.Url64(32)}),
       p({s.Alnum(3), "7Q", "-", s.Url64(32)})},
      {"gcp-service-account", "service_account", "service_acount", "{\"type\": \"", "\"}"},
      {"gcp-service-account-key-id", s.Hex(40), s.Hex(39), "\"private_key_id\": \"", "\""},
      {"gcp-oauth-client-secret", p({"GOC", "SPX-", s.Url64(28)}), p({"GOC", "SPX-", s.Url64(10)})},
      {"google-oauth-access-token", p({"ya", "29.", s.Url64(60)}), p({"ya", "29.", s.Url64(12)})},
      {"npm-access-token", p({"np", "m_", s.Alnum(36)}), p({"np", "m_", s.Alnum(30)})},
      {"pypi-upload-token", p({"pypi-AgEI", "cHlwaS5vcmc", s.Url64(70)}),
       p({"pypi-AgEI", "cHlwaS5vcmc", s.Url64(20)})},
      {"rubygems-api-key", p({"ruby", "gems_", s.Hex(48)}), p({"ruby", "gems_", s.Hex(40)})},
      {"nuget-api-key", p({"oy", "2", s.Of(std::string(kLower) + kDigits, 43)}),
       p({"oy", "2", s.Of(std::string(kLower) + kDigits, 30)})},
      {"dockerhub-pat", p({"dckr", "_pat_", s.Url64(27)}), p({"dckr", "_pat_", s.Url64(15)})},
      {"shopify-token", p({"shp", "at_", s.Hex(32)}), p({"shp", "xx_", s.Hex(32)})},
      {"square-access-token", p({"sq0", "atp-", s.Url64(22)}), p({"sq0", "atp-", s.Url64(10)})},
      {"square-oauth-secret", p({"sq0", "csp-", s.Url64(43)}), p({"sq0", "csp-", s.Url64(20)})},
      {"slack-token", p({"xo", "xb-", s.Of(kDigits, 12), "-", s.Alnum(24)}),
       p({"xo", "xz-", s.Of(kDigits, 12), "-", s.Alnum(24)})},
      {"slack-webhook", p({"hooks.slack.com/services/T", s.Alnum(8), "/B", s.Alnum(8), "/", s.Alnum(24)}),
       p({"hooks.slack.com/servic/T", s.Alnum(8), "/B", s.Alnum(8), "/", s.Alnum(24)}),
       "https://", ""},
      {"github-token", p({"gh", "p_", s.Alnum(36)}), p({"gh", "p_", s.Alnum(20)})},
      {"github-fine-grained-token", p({"github", "_pat_", s.Alnum(22), "_", s.Alnum(59)}),
       p({"github", "_pat_", s.Alnum(10)})},
      {"gitlab-token", p({"gl", "pat-", s.Url64(20)}), p({"gl", "pat-", s.Url64(12)})},
      {"atlassian-api-token", p({"ATA", "TT3", s.Url64(180)}), p({"ATA", "TT3", s.Url64(40)})},
      {"digitalocean-token", p({"do", "p_v1_", s.Hex(64)}), p({"do", "p_v1_", s.Hex(40)})},
      {"heroku-api-key", uuid, p({s.Hex(8), "-", s.Hex(4)}), "HEROKU_API_KEY=", "\n"},
      {"hashicorp-vault-token", p({"hv", "s.", s.Url64(95)}), p({"hv", "s.", s.Url64(30)})},
      {"terraform-cloud-token", p({s.Alnum(14), ".atlas", "v1.", s.Url64(64)}),
       p({s.Alnum(14), ".atlas", "v2.", s.Url64(64)})},
      {"doppler-token", p({"dp", ".pt.", s.Alnum(43)}), p({"dp", ".pt.", s.Alnum(20)})},
      {"dropbox-token", p({"sl", ".", s.Url64(140)}), p({"sl", ".", s.Url64(60)})},
      {"discord-bot-token", p({"M", s.Alnum(23), ".", s.Url64(6), ".", s.Url64(27)}),
       p({"M", s.Alnum(23), ".", s.Url64(6)})},
      {"telegram-bot-token", p({s.Of(kDigits, 9), ":A", "A", s.Url64(33)}),
       p({s.Of(kDigits, 9), ":B", "B", s.Url64(33)})},
      {"facebook-access-token", p({"EA", "AB", s.Alnum(120)}), p({"EA", "AB", s.Alnum(30)})},
      {"postman-api-key", p({"PM", "AK-", s.Hex(24), "-", s.Hex(34)}),
       p({"PM", "AK-", s.Hex(24), "-", s.Hex(20)})},
      {"pulumi-token", p({"pu", "l-", s.Hex(40)}), p({"pu", "l-", s.Hex(30)})},
      {"linear-api-key", p({"lin", "_api_", s.Alnum(40)}), p({"lin", "_api_", s.Alnum(20)})},
      {"openai-api-key", p({"s", "k-proj-", s.Url64(48)}), p({"s", "k-proj-", s.Url64(8)})},
      {"anthropic-api-key", p({"sk-", "ant-api03-", s.Url64(95)}),
       p({"sk-", "ant-api99-", s.Url64(95)})},
      {"huggingface-token", p({"h", "f_", s.Of(std::string(kLower) + kUpper, 34)}),
       p({"h", "f_", s.Of(std::string(kLower) + kUpper, 20)})},
      {"databricks-token", p({"da", "pi", s.Hex(32)}), p({"da", "pi", s.Hex(20)})},
      {"newrelic-user-key", p({"NR", "AK-", s.Of(std::string(kUpper) + kDigits, 27)}),
       p({"NR", "AK-", s.Of(std::string(kUpper) + kDigits, 15)})},
      {"sentry-token", p({"sntr", "ys_", s.B64(60)}), p({"sntr", "ys_", s.B64(20)})},
      {"grafana-token", p({"gl", "sa_", s.Alnum(32), "_", s.Hex(8)}),
       p({"gl", "sa_", s.Alnum(32), "_", s.Hex(4)})},
      {"datadog-api-key", s.Hex(32), s.Hex(20), "DATADOG_API_KEY=", "\n"},
      {"cloudflare-api-token", s.Url64(40), s.Url64(25), "CLOUDFLARE_API_TOKEN=", "\n"},
      {"age-secret-key", p({"AGE-SECRET", "-KEY-1", s.Of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)}),
       p({"AGE-SECRET", "-KEY-1", s.Of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 30)})},
      {"flyio-token", p({"fo", "1_", s.Url64(43)}), p({"fo", "1_", s.Url64(20)})},
      {"planetscale-token", p({"pscale", "_tkn_", s.Url64(43)}), p({"pscale", "_tkn_", s.Url64(12)})},
      {"shippo-api-token", p({"shippo", "_live_", s.Hex(40)}), p({"shippo", "_live_", s.Hex(20)})},
      {"alibaba-access-key-id", p({"LT", "AI", s.Alnum(20)}), p({"LT", "AI", s.Alnum(12)})},
      {"easypost-api-key", p({"EZ", "AK", s.Alnum(54)}), p({"EZ", "AK", s.Alnum(20)})},
      {"mapbox-secret-token", p({"s", "k.ey", "J", s.Url64(60), ".", s.Url64(22)}),
       p({"p", "k.ey", "J", s.Url64(60), ".", s.Url64(22)})},
      {"airtable-pat", p({"pa", "t", s.Alnum(14), ".", s.Hex(64)}),
       p({"pa", "t", s.Alnum(14), ".", s.Hex(30)})},
      {"google-api-key", p({"AI", "za", s.Url64(35)}), p({"AI", "za", s.Url64(20)})},
      {"jwt", p({"ey", "J", s.Url64(20), ".ey", "J", s.Url64(30), ".", s.Url64(43)}),
       p({"ey", "J", s.Url64(20), ".ab", "c", s.Url64(30)})},
      {"url-credentials", s.Alnum(12), s.Alnum(12), "postgres://admin:", "@db.internal/x"},
      {"high-entropy-literal", p({s.B64(38), "7"}), std::string(40, 'a') + "1", "x = \"", "\";"},
      // Credentials inside longer text; the near miss has no digit or
      // (basic-auth) is not base64 of `user:password`.
      {"bearer-token", s.Alnum(30) + "4", s.Of(kLower, 30), "h(\"Authorization: Bearer ", "\");"},
      {"basic-auth", Base64("deploy:" + s.Alnum(12)), Base64(s.Alnum(18)),
       "h(\"Authorization: Basic ", "\");"},
      {"cookie-value", s.Alnum(32) + "5", s.Of(kLower, 32), "h(\"Cookie: a=b; sid=", "; x=y\");"},
      {"api-key-header", s.Alnum(32) + "6", s.Of(kLower, 32), "// X-Api-Key: ", "\n"},
      // Random-looking tokens inside a longer literal or a comment; the near
      // miss is a commit id.
      {"high-entropy-in-literal", p({s.B64(38), "7Qa"}), s.Hex(40), "x = \"token ", " end\";"},
      {"high-entropy-comment", p({s.B64(38), "8Rb"}), s.Hex(40), "// old key ", "\n"},
  };
  // The near miss of url-credentials has no password part.
  for (Case& c : cases) {
    if (c.rule == "url-credentials") c.negative = "";
  }
  return cases;
}

bool Finds(const SecretScanner& scanner, const std::string& text, const std::string& rule,
           const std::string& secret) {
  size_t at = text.find(secret);
  for (const SecretMatch& m : scanner.Scan(text)) {
    if (m.rule_id == rule && m.begin <= at && at + secret.size() <= m.end + 2) return true;
  }
  return false;
}

SecretScanner Scanner() {
  auto scanner = SecretScanner::Create({});
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  return *std::move(scanner);
}

TEST(SecretRulesTest, EveryProviderRuleFindsItsPositiveAndNotItsNegativeSample) {
  SecretScanner scanner = Scanner();
  std::set<std::string> tested;
  for (const Case& c : Cases()) {
    tested.insert(c.rule);
    std::string yes = "line before\n" + c.before + c.positive + c.after + "line after";
    EXPECT_TRUE(Finds(scanner, yes, c.rule, c.positive)) << c.rule << ": " << yes;
    if (c.negative.empty()) continue;
    std::string no = "line before\n" + c.before + c.negative + c.after + "line after";
    for (const SecretMatch& m : scanner.Scan(no)) {
      EXPECT_NE(m.rule_id, c.rule) << c.rule << " fired on its near miss: " << no;
    }
  }
  // Every built-in rule but the three the other suite covers has a case
  // here, and there are at least 40 provider rules.
  int providers = 0;
  for (const std::string& id : SecretScanner::BuiltinRuleIds()) {
    if (id == "private-key" || id == "aws-secret-access-key" || id == "generic-assignment") {
      continue;
    }
    EXPECT_TRUE(tested.count(id)) << "no case for rule " << id;
    if (kNotProviders.count(id) == 0) ++providers;
  }
  EXPECT_GE(providers, 40);
}

TEST(SecretRulesTest, SplitLiteralsAreFoldedAcrossLinesAndComments) {
  SecretScanner scanner = Scanner();
  Sampler s(7);
  std::string key = "AK" + std::string("IA") + s.Of(std::string(kUpper) + kDigits, 16);
  std::string a = key.substr(0, 10), b = key.substr(10, 6), c = key.substr(16);
  for (const std::string& text : {
           "String k = \"" + a + "\" + \"" + b + c + "\";",
           "String k = \"" + a + "\"\n        + \"" + b + "\" +\n  \"" + c + "\";",
           "String k = \"" + a + "\" /* x */ + // y\n \"" + b + c + "\";",
       }) {
    std::vector<SecretMatch> found = scanner.Scan(text);
    bool hit = false;
    for (const SecretMatch& m : found) {
      if (m.rule_id != "aws-access-key-id") continue;
      hit = true;
      // The span runs from the first piece's start to the last one's end.
      EXPECT_EQ(m.begin, text.find(a)) << text;
      EXPECT_EQ(m.end, text.rfind(c) + c.size()) << text;
    }
    EXPECT_TRUE(hit) << text;
  }
  // A Stripe key split the same way.
  std::string stripe = "sk" + std::string("_live_") + s.Alnum(24);
  std::string text = "pay(\"" + stripe.substr(0, 9) + "\" + \"" + stripe.substr(9) + "\");";
  EXPECT_TRUE(Finds(scanner, text, "stripe-secret-key", stripe.substr(0, 9))) << text;
  // Concatenation with a variable is not a compile-time constant: no join.
  FoldedText folded = FoldStringConcatenations("\"ab\" + x + \"cd\"");
  EXPECT_EQ(folded.joins, 0);
  EXPECT_EQ(FoldStringConcatenations("\"ab\" + \"cd\"").text, "\"abcd\"");
  EXPECT_EQ(FoldStringConcatenations("\"a\\\"b\" + \"c\"").text, "\"a\\\"bc\"");
}

TEST(SecretRulesTest, ExampleTestSourcesAndTestClassNamesAreNotSecrets) {
  SecretScanner scanner = Scanner();
  int files = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(testing::SourceDir() + "/examples")) {
    if (entry.path().extension() != ".java") continue;
    ++files;
    auto text = ReadFile(entry.path().string());
    ASSERT_TRUE(text.ok());
    for (const SecretMatch& m : scanner.Scan(*text)) {
      // The bank example plants one confidential constant on purpose.
      if (text->substr(m.begin, m.end - m.begin) == "AK-7f3e9c1d-CONFIDENTIAL") continue;
      ADD_FAILURE() << entry.path() << ": " << m.rule_id << " at " << m.begin;
    }
  }
  EXPECT_GT(files, 4);
  for (const char* text :
       {"class KeyTest { @Test void keyRotationWorks() { assertEquals(3, keys.size()); } }",
        "String tokenizerConfigurationName = \"tokenizer-configuration\";",
        "String id = \"0123456789abcdef0123456789abcdef01234567\";",  // a hex digest
        "UUID u = UUID.fromString(\"123e4567-e89b-12d3-a456-426614174000\");"}) {
    EXPECT_TRUE(scanner.Scan(text).empty()) << text;
  }
}

}  // namespace
}  // namespace tracespec::gateway
