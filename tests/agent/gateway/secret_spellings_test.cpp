// Tests for the parts of agent/gateway/secret_scanner.h that read past the
// source spelling: the decoded Java source (escapes, text blocks), header
// credentials inside longer text, random-looking tokens in comments and
// longer literals; and that the project's own Java sources and the prompt
// template raise none of these rules. Samples are assembled at run time so
// this file holds no secret-shaped text.
#include <filesystem>
#include <random>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "agent/gateway/secret_scanner.h"
#include "agent/prompt/prompt_builder.h"
#include "common/files.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::gateway {
namespace {

const std::set<std::string> kNewRules = {"bearer-token",          "basic-auth",
                                         "cookie-value",          "api-key-header",
                                         "high-entropy-in-literal", "high-entropy-comment"};

SecretScanner Scanner(const v1::EgressPolicy& policy = {}) {
  auto scanner = SecretScanner::Create(policy);
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  return *std::move(scanner);
}

// Seeded random token characters.
std::string Random(unsigned seed, const std::string& alphabet, int n) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
  std::string out;
  for (int i = 0; i < n; ++i) out += alphabet[pick(rng)];
  return out;
}
const std::string kUpperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const std::string kBase64 =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const std::string kAlnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// A fake cloud key (the AWS access key id shape) and ways to spell it.
std::string CloudKey() { return std::string("AK") + "IA" + Random(26, kUpperDigits, 16); }
std::string UnicodeEscape(char c, int us = 1) {
  return absl::StrFormat("\\%s%04x", std::string(us, 'u'), static_cast<unsigned char>(c));
}
std::string OctalEscape(char c) {
  return absl::StrFormat("\\%o", static_cast<unsigned char>(c));
}

std::vector<SecretMatch> Of(const std::vector<SecretMatch>& all, const std::string& rule) {
  std::vector<SecretMatch> out;
  for (const SecretMatch& m : all) {
    if (m.rule_id == rule) out.push_back(m);
  }
  return out;
}

TEST(SecretSpellingsTest, DecodedSourceFollowsTheJavaLanguageSpecification) {
  // Unicode escapes, with several u's, not after an escaped backslash.
  DecodedText d = DecodeJavaSource(R"(x = "\u0041\uuu0042\\u0043";)");
  EXPECT_EQ(d.text, R"(x = "AB\u0043";)");
  ASSERT_EQ(d.origin.size(), d.text.size());
  EXPECT_EQ(d.origin[5], 5u);  // 'A' from "\u0041"
  EXPECT_EQ(d.origin_end[5], 11u);
  EXPECT_EQ(d.origin[6], 11u);  // 'B' from "\uuu0042"
  EXPECT_EQ(d.origin_end[6], 19u);
  // Octal and simple escapes, escaped quotes, a char literal.
  EXPECT_EQ(DecodeJavaSource(R"(s("\101\60\7x\"q\"\\", '\42');)").text,
            "s(\"A0\ax\"q\"\\\", '\"');");
  // A text block: incidental indentation (the closing line counts) and
  // trailing blanks stripped, \<line break> joins, \s is a blank.
  std::string block = "String s = \"\"\"\n      ab\\\n      cd  \n        e\\s\n      \"\"\";";
  EXPECT_EQ(DecodeJavaSource(block).text, "String s = \"abcd\n  e \n\";");
  // Concatenations are folded after unicode escapes are resolved.
  EXPECT_EQ(DecodeJavaSource(R"("a\u0022 + \u0022b" + "c")").text, "\"abc\"");
  // Apostrophes of prose and unterminated quotes are left alone.
  EXPECT_EQ(DecodeJavaSource("it's \"open\\n").text, "it's \"open\\n");
  EXPECT_EQ(DecodeJavaSource("plain text").changes, 0);
}

TEST(SecretSpellingsTest, AnEscapedCloudKeyIsFoundAndItsSpanCoversTheSpelling) {
  const std::string key = CloudKey();
  const std::string head = key.substr(0, 4), tail = key.substr(4);
  std::string unicode;
  for (char c : head) unicode += UnicodeEscape(c);
  std::string many_us = UnicodeEscape(key[0], 3) + key.substr(1, 18) + UnicodeEscape(key[19], 2);
  std::string octal;
  for (char c : head) octal += OctalEscape(c);
  struct Case {
    std::string name;
    std::string spelling;  // what the source holds between the quotes
    std::string open = "\"", close = "\"";
  } cases[] = {
      {"unicode escapes", unicode + tail},
      {"several u's", many_us},
      {"octal escapes", octal + tail},
      {"text block with a line continuation",
       key.substr(0, 9) + "\\\n            " + key.substr(9), "\"\"\"\n            ",
       "\n            \"\"\""},
      {"escaped quote before the key", "id=\\\"" + unicode + tail + "\\\""},
  };
  SecretScanner scanner = Scanner();
  for (const Case& c : cases) {
    std::string source = "  @Test void signs() {\n    String k = " + c.open + c.spelling +
                         c.close + ";\n    assertTrue(k.length() > 0);\n  }\n";
    // The raw spelling is not the key...
    EXPECT_EQ(source.find(key), std::string::npos) << c.name;
    std::vector<SecretMatch> found = Of(scanner.Scan(source), "aws-access-key-id");
    ASSERT_EQ(found.size(), 1u) << c.name << ": " << source;
    // ...and the span runs over the key's whole spelling, from the first
    // character's escape to the last one's, so masking hides all of it.
    size_t from = source.find(c.spelling.substr(0, 2));
    if (c.name == "escaped quote before the key") from = source.find(unicode);
    size_t to = source.find(c.close, from + 1);
    if (c.name == "escaped quote before the key") to = source.rfind("\\\"");
    EXPECT_EQ(found[0].begin, from) << c.name;
    EXPECT_EQ(found[0].end, to) << c.name;
  }
}

TEST(SecretSpellingsTest, AnEscapedQuoteNoLongerHidesAnAssignedSecret) {
  std::string value = Random(3, kAlnum, 20) + "7";
  std::string source = "String json = \"{password=\\\"" + value + "\\\"}\";";
  std::vector<SecretMatch> found = Of(Scanner().Scan(source), "generic-assignment");
  ASSERT_EQ(found.size(), 1u) << source;
  EXPECT_EQ(source.substr(found[0].begin, found[0].end - found[0].begin), value);
}

TEST(SecretSpellingsTest, HeaderCredentialsInsideLongerTextAndComments) {
  std::string token = Random(5, kAlnum, 20) + "9Zz";
  std::string basic;
  absl::Base64Escape("svc-deploy:" + Random(6, kAlnum, 12), &basic);
  std::string cookie = Random(7, kAlnum, 24) + "42";
  std::string api = Random(8, kAlnum, 28) + "1a";
  struct Case {
    std::string rule;
    std::string text;
    std::string secret;
  } cases[] = {
      {"bearer-token", "req.header(\"Authorization: Bearer " + token + "\");", token},
      {"bearer-token", "// curl -H 'Authorization: bearer " + token + "' http://x\n", token},
      {"basic-auth", "String h = \"Authorization: Basic " + basic + "\";", basic},
      {"basic-auth", "/* sent as: Basic " + basic + " */", basic},
      {"cookie-value", "send(\"Cookie: theme=dark; session=" + cookie + "; lang=en\");", cookie},
      {"cookie-value", "String h = \"Set-Cookie: SID=" + cookie + "; Path=/; HttpOnly\";", cookie},
      {"api-key-header", "conn.send(\"GET / HTTP/1.1\\r\\nX-Api-Key: " + api + "\\r\\n\");", api},
      {"api-key-header", "// X-Auth-Token: " + api + "\n", api},
  };
  SecretScanner scanner = Scanner();
  for (const Case& c : cases) {
    std::vector<SecretMatch> found = Of(scanner.Scan(c.text), c.rule);
    ASSERT_EQ(found.size(), 1u) << c.rule << " missed in: " << c.text;
    EXPECT_EQ(c.text.substr(found[0].begin, found[0].end - found[0].begin), c.secret) << c.text;
  }
}

TEST(SecretSpellingsTest, ProseAndCodeAboutHeadersIsNotASecret) {
  SecretScanner scanner = Scanner();
  for (const char* text : {
           "// Bearer token is required for every call to the service",
           "throw new IllegalStateException(\"Bearer authentication required\");",
           "String h = \"Authorization: Bearer \" + token;",
           "String h = \"Bearer \" + credentials.accessToken();",
           "// Basic authentication is disabled in tests",
           "assertEquals(\"Basic realm=\\\"shop\\\"\", response.header(\"WWW-Authenticate\"));",
           "String c = \"Cookie: theme=dark; lang=en-GB\";",
           "// Set-Cookie: name=value is parsed by CookieParser.parseHeaderLine(line)",
           "headers.put(\"X-Api-Key\", apiKeyFromEnvironment());",
           "// X-Request-Id: 0000-1111 is echoed back",
       }) {
    for (const SecretMatch& m : scanner.Scan(text)) {
      ADD_FAILURE() << m.rule_id << " fired on: " << text;
    }
  }
}

TEST(SecretSpellingsTest, RandomTokensInCommentsAndLongerLiteralsAreFound) {
  std::string token = Random(11, kBase64, 38) + "7Q";
  struct Case {
    std::string rule;
    std::string text;
  } cases[] = {
      {"high-entropy-comment", "int retries = 3;  // old key " + token + "\n"},
      {"high-entropy-comment", "/*\n * staging credential:\n * " + token + "\n */\nclass A {}"},
      {"high-entropy-in-literal", "String cfg = \"endpoint=https://x;secret " + token + " end\";"},
      {"high-entropy-in-literal", "String cfg = \"\"\"\n    region: eu\n    " + token +
                                      "\n    \"\"\";"},
  };
  SecretScanner scanner = Scanner();
  for (const Case& c : cases) {
    std::vector<SecretMatch> found = Of(scanner.Scan(c.text), c.rule);
    ASSERT_EQ(found.size(), 1u) << c.rule << " missed in: " << c.text;
    EXPECT_EQ(c.text.substr(found[0].begin, found[0].end - found[0].begin), token) << c.text;
  }
  // The token as a whole literal is high-entropy-literal's, not these.
  std::string whole = "String s = \"" + token + "\";";
  std::vector<SecretMatch> found = Scanner().Scan(whole);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule_id, "high-entropy-literal");
  // Outside comments and literals the window rules do not look.
  EXPECT_TRUE(Of(scanner.Scan("int " + token.substr(0, 1) + "x;\n" + token), "high-entropy-comment")
                  .empty());
}

TEST(SecretSpellingsTest, CommitIdsIdentifiersAndPathsInCommentsAreNotSecrets) {
  SecretScanner scanner = Scanner();
  std::string sha = Random(12, "0123456789abcdef", 40);
  for (const std::string& text : {
           "// fixed in commit " + sha + " (see the changelog)\n",
           "// Digest: sha256:" + Random(13, "0123456789abcdef", 64) + "\n",
           "// " + Random(14, "0123456789ABCDEF", 40) + " upper-case hex digest\n",
           std::string("// assertThatTheAccountBalanceStaysPositive2AfterWithdraw3\n"),
           std::string("/* see org/apache/commons/lang3/StringUtils2Test/Base64Codec1 */\n"),
           std::string("// ConcurrentHashMapWithExpiringEntriesV2Test3 covers eviction\n"),
           std::string("String msg = \"expected AccountBalanceCalculator2ForTesting3 here\";"),
           std::string("String id = \"order 123e4567-e89b-12d3-a456-426614174000 shipped\";"),
           std::string("// HTTP_STATUS_CODE_FOR_INSUFFICIENT_FUNDS_ERROR_42 ok\n"),
       }) {
    for (const SecretMatch& m : scanner.Scan(text)) {
      ADD_FAILURE() << m.rule_id << " fired on: " << text;
    }
  }
}

TEST(SecretSpellingsTest, NewRulesCanBeDisabledByThePolicy) {
  std::string token = Random(15, kBase64, 38) + "7Q";
  std::string text = "// X-Api-Key: " + token + "\n// Bearer " + token +
                     "\nString s = \"a " + token + " b\";\n";
  std::set<std::string> fired;
  for (const SecretMatch& m : Scanner().Scan(text)) fired.insert(m.rule_id);
  for (const char* rule : {"api-key-header", "bearer-token", "high-entropy-comment",
                           "high-entropy-in-literal"}) {
    EXPECT_TRUE(fired.count(rule)) << rule;
  }
  v1::EgressPolicy policy;
  for (const std::string& rule : kNewRules) policy.add_disabled_secret_rules(rule);
  policy.add_disabled_secret_rules("generic-assignment");
  for (const SecretMatch& m : Scanner(policy).Scan(text)) {
    ADD_FAILURE() << m.rule_id << " still fires";
  }
  std::vector<std::string> ids = SecretScanner::BuiltinRuleIds();
  for (const std::string& rule : kNewRules) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), rule), ids.end()) << rule;
  }
}

TEST(SecretSpellingsTest, TheProjectsJavaSourcesAndPromptTemplateRaiseNothing) {
  // Secrets the project's sources plant on purpose (compared to the matched text).
  const std::set<std::string> planted = {"AK-7f3e9c1d-CONFIDENTIAL"};
  SecretScanner scanner = Scanner();
  int files = 0;
  // bench/privacy's adversarial cases plant secrets on purpose (their
  // case.txt says `kind adversarial`); its clean cases must raise nothing.
  auto adversarial = [](const std::filesystem::path& file) {
    for (std::filesystem::path dir = file.parent_path(); dir.has_parent_path() && dir != dir.parent_path();
         dir = dir.parent_path()) {
      if (dir.parent_path().filename() != "cases" ||
          dir.parent_path().parent_path().filename() != "privacy") {
        continue;
      }
      auto spec = ReadFile((dir / "case.txt").string());
      return spec.ok() && absl::StrContains(*spec, "kind adversarial");
    }
    return false;
  };
  for (const char* dir : {"examples", "tests/e2e/projects", "bench"}) {
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(testing::SourceDir() + "/" + dir)) {
      if (entry.path().extension() != ".java" || adversarial(entry.path())) continue;
      ++files;
      auto text = ReadFile(entry.path().string());
      ASSERT_TRUE(text.ok()) << text.status();
      for (const SecretMatch& m : scanner.Scan(*text)) {
        if (planted.count(text->substr(m.begin, m.end - m.begin))) continue;
        ADD_FAILURE() << entry.path() << ": " << m.rule_id << " at " << m.begin;
      }
    }
  }
  EXPECT_GT(files, 100);
  for (const std::string& text : prompt::PromptBuilder::TemplateTexts()) {
    for (const SecretMatch& m : scanner.Scan(text)) {
      ADD_FAILURE() << "prompt template: " << m.rule_id << " at " << m.begin;
    }
  }
}

}  // namespace
}  // namespace tracespec::gateway
