// Tests for agent/gateway/secret_scanner.h: every built-in rule finds its
// kind of secret, ordinary test code is left alone, and policy rules work.
#include "agent/gateway/secret_scanner.h"

#include "gtest/gtest.h"

namespace tracespec::gateway {
namespace {

SecretScanner Scanner(const v1::EgressPolicy& policy = {}) {
  auto scanner = SecretScanner::Create(policy);
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  return *std::move(scanner);
}

// Samples are assembled at run time so this file holds no secret-shaped text.
std::string Repeat(const std::string& unit, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += unit;
  return out;
}

TEST(SecretScannerTest, EveryBuiltinRuleFindsItsSecret) {
  struct Case {
    std::string rule;
    std::string secret;
    std::string before;
    std::string after;
  } cases[] = {
      {"aws-access-key-id", "AKIA" + Repeat("Q7ZX", 4), "key ", "\n"},
      {"aws-secret-access-key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + Repeat("Ab3d", 2) + "Qz",
       "aws_secret_access_key = ", "\n"},
      {"private-key",
       "-----BEGIN RSA PRIVATE"
       " KEY-----",
       "", "\nMIIE..."},
      {"github-token", "ghp_" + Repeat("aB3dE6gH9j", 4), "token: ", ""},
      {"github-fine-grained-token", "github_pat_" + Repeat("11AbCdEfGh", 3), "", ""},
      {"slack-token", "xoxb-" + Repeat("1234567890-", 2) + "AbCdEf", "slack ", " end"},
      {"slack-webhook", "hooks.slack.com/services/T0000/B0000/" + Repeat("XyZ1", 6), "https://",
       ""},
      {"openai-api-key", "sk-proj-" + Repeat("Ab1Cd2Ef3G", 4), "OPENAI=", ""},
      {"google-api-key", "AIza" + Repeat("SyD3f5G7h9", 3) + "Kl2Mn", "", ""},
      {"jwt",
       "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
       "XgL0n3I9PlFUP0THsR8U",
       "Bearer ", ""},
      {"url-credentials", "hunter2pass", "postgres://admin:", "@db.internal:5432/x"},
      {"generic-assignment", "Zq8xP3vL9mT2kR7wY5nB", "api_key = \"", "\";"},
  };
  SecretScanner scanner = Scanner();
  for (const Case& c : cases) {
    std::string text = "prefix text\n" + c.before + c.secret + c.after + " suffix";
    std::vector<SecretMatch> found = scanner.Scan(text);
    bool hit = false;
    for (const SecretMatch& m : found) {
      if (m.rule_id != c.rule) continue;
      hit = true;
      // The span covers the secret (the private-key rule marks the header).
      size_t at = text.find(c.secret);
      EXPECT_LE(m.begin, at + c.secret.size()) << c.rule;
      EXPECT_GE(m.end, at) << c.rule;
      EXPECT_LE(m.end, text.size()) << c.rule;
    }
    EXPECT_TRUE(hit) << c.rule << " missed in: " << text;
  }
}

TEST(SecretScannerTest, OrdinaryTestCodeIsNotASecret) {
  const char* code = R"(
    @Test void tokenizerKeepsKeys() {
      Map<String, Integer> keyCounts = tokenizer.countKeysInDocumentCollection(docs);
      String key = "alpha";
      String passwordHint = "remember the name of your first pet";
      assertEquals(3, keyCounts.get("token"));
      int secretLength = computeSecretLength(16);
      Object authority = authorityResolverForTestingPurposes123();
      // //@ ensures \result == (\forall int i; 0 <= i && i < a.length; a[i] >= 0);
    }
  )";
  EXPECT_TRUE(Scanner().Scan(code).empty());
}

TEST(SecretScannerTest, GenericRuleNeedsEntropyAndADigit) {
  SecretScanner scanner = Scanner();
  EXPECT_TRUE(scanner.Scan("token = \"aaaaaaaaaaaaaaaaaaaa1\"").empty());   // low entropy
  EXPECT_TRUE(scanner.Scan("token = \"abcdefghijklmnopqrstuv\"").empty());  // no digit
  EXPECT_FALSE(scanner.Scan("token = \"k3J9xQ2mZ7pL4vN8\"").empty());
  v1::EgressPolicy strict;
  strict.set_generic_secret_min_entropy(4.5);
  EXPECT_TRUE(Scanner(strict).Scan("token = \"k3J9xQ2mZ7pL4vN8\"").empty());
}

TEST(SecretScannerTest, PolicyRulesAddAndDisable) {
  v1::EgressPolicy policy;
  v1::SecretRule* rule = policy.add_secret_rules();
  rule->set_id("corp-ticket");
  rule->set_regex("CTT-([0-9a-f]{8})");
  rule->set_secret_group(1);
  policy.add_disabled_secret_rules("jwt");
  SecretScanner scanner = Scanner(policy);
  auto found = scanner.Scan("ticket CTT-deadbeef here");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule_id, "corp-ticket");
  EXPECT_EQ(found[0].begin, 11u);
  EXPECT_EQ(found[0].end, 19u);
  EXPECT_TRUE(
      scanner.Scan("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N")
          .empty());
}

TEST(SecretScannerTest, Entropy) {
  EXPECT_DOUBLE_EQ(ShannonEntropy(""), 0);
  EXPECT_DOUBLE_EQ(ShannonEntropy("aaaa"), 0);
  EXPECT_DOUBLE_EQ(ShannonEntropy("abab"), 1);
  EXPECT_DOUBLE_EQ(ShannonEntropy("abcd"), 2);
}

}  // namespace
}  // namespace tracespec::gateway
