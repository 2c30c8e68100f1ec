// Tests for common/deny_rule.h: deny rules read names as words and look
// at what a value is.
#include "common/deny_rule.h"

#include "gtest/gtest.h"

namespace tracespec {
namespace {

constexpr char kString[] = "Ljava/lang/String;";

bool Denies(const char* rule, const char* name, const char* descriptor = kString) {
  return DenyRuleApplies(rule, name, descriptor);
}

TEST(DenyRuleTest, AWordRuleMatchesWholeWordsNotSubstrings) {
  EXPECT_TRUE(Denies("*secret*", "clientSecret"));
  EXPECT_TRUE(Denies("*secret*", "SECRET_KEY"));
  EXPECT_TRUE(Denies("*secret*", "secrets"));
  EXPECT_TRUE(Denies("*key*", "apiKey"));
  EXPECT_TRUE(Denies("*key*", "SECRET_KEY"));
  EXPECT_TRUE(Denies("*key*", "privateKeys"));
  EXPECT_TRUE(Denies("*token*", "accessToken"));
  EXPECT_TRUE(Denies("*token*", "refresh_token"));
  EXPECT_TRUE(Denies("*password*", "dbPassword"));

  EXPECT_FALSE(Denies("*secret*", "secretaryName"));
  EXPECT_FALSE(Denies("*key*", "monkeys"));
  EXPECT_FALSE(Denies("*key*", "turkeyKg"));
  EXPECT_FALSE(Denies("*key*", "hotkey"));
  EXPECT_FALSE(Denies("*key*", "keyboardLayout"));
  EXPECT_FALSE(Denies("*token*", "tokenize"));
  EXPECT_FALSE(Denies("*password*", "passwordless"));
}

TEST(DenyRuleTest, AllLowerCaseCompoundsOfSecretWordsStillMatch) {
  // No case or underscore shows the words: a qualifier glued to the
  // rule's word makes a compound that names a secret.
  EXPECT_TRUE(Denies("*key*", "apikey"));
  EXPECT_TRUE(Denies("*key*", "APIKEY"));
  EXPECT_TRUE(Denies("*key*", "secretkey"));
  EXPECT_TRUE(Denies("*key*", "passkeys"));
  EXPECT_TRUE(Denies("*token*", "authtoken"));
  EXPECT_TRUE(Denies("*token*", "sessiontokenValue"));
  EXPECT_TRUE(Denies("*password*", "dbpassword"));
  EXPECT_TRUE(Denies("*api_key*", "apiKey"));
  EXPECT_TRUE(Denies("*api_key*", "API_KEY"));
  EXPECT_FALSE(Denies("*api_key*", "rapidKey"));
}

TEST(DenyRuleTest, APatternWithholdsOnlyTypesThatCanHoldASecret) {
  EXPECT_TRUE(Denies("*key*", "apiKey", "[B"));
  EXPECT_TRUE(Denies("*key*", "apiKey", "[C"));
  EXPECT_TRUE(Denies("*secret*", "secretSeed", "J"));
  EXPECT_TRUE(Denies("*key*", "signingKey", "Ljava/security/Key;"));
  EXPECT_FALSE(Denies("*key*", "key", "I"));
  EXPECT_FALSE(Denies("*token*", "tokens", "I"));
  EXPECT_FALSE(Denies("*token*", "tokens", "Ljava/lang/Integer;"));
  EXPECT_FALSE(Denies("*key*", "keyChar", "C"));
  EXPECT_FALSE(Denies("*private*", "privateLabelCode", "I"));
  // An exact name withholds any type: that is how an int secret is named.
  EXPECT_TRUE(Denies("pin", "PIN", "I"));
  EXPECT_FALSE(Denies("pin", "pins", "I"));
}

TEST(DenyRuleTest, ANameForAFactAboutASecretIsNotTheSecret) {
  EXPECT_FALSE(Denies("*token*", "tokenExpiry", "J"));
  EXPECT_FALSE(Denies("*token*", "accessTokenTtl", "J"));
  EXPECT_FALSE(Denies("*password*", "passwordLength", "J"));
  EXPECT_FALSE(Denies("*key*", "keyIndex", "J"));
  EXPECT_FALSE(Denies("*password*", "passwordRules"));
  // What holds the secret, or something derived from it, stays withheld.
  EXPECT_TRUE(Denies("*token*", "tokenValue"));
  EXPECT_TRUE(Denies("*password*", "passwordHash"));
  EXPECT_TRUE(Denies("*key*", "keyBytes", "[B"));
  EXPECT_TRUE(Denies("*token*", "expiredToken"));
}

// A String named `key` may be a lookup key or key material
// (`hmac(String message, String key)`): the name cannot tell, so it is
// withheld, like key material named or typed for what it is.
TEST(DenyRuleTest, ABareStringKeyIsWithheldLikeKeyMaterial) {
  EXPECT_TRUE(Denies("*key*", "key"));
  EXPECT_TRUE(Denies("*key*", "KEY"));
  EXPECT_TRUE(Denies("*key*", "keys"));
  EXPECT_TRUE(Denies("*key*", "key", "[B"));
  EXPECT_TRUE(Denies("*key*", "key", "[C"));
  EXPECT_TRUE(Denies("*key*", "key", "J"));
  EXPECT_TRUE(Denies("*key*", "key", "Ljavax/crypto/SecretKey;"));
  EXPECT_TRUE(Denies("*key*", "secretKey"));
  EXPECT_TRUE(Denies("*key*", "privateKey"));
}

// ... but only for want of evidence: a String named just `key` (and no
// other of the cases above) is withheld unless the tests disclose its value;
// an exact-name rule withholds it always.
TEST(DenyRuleTest, OnlyABareStringKeyIsWithheldUnlessDisclosed) {
  EXPECT_TRUE(DeniedUnlessDisclosed("*key*", "key", kString));
  EXPECT_TRUE(DeniedUnlessDisclosed("*key*", "KEY", kString));
  EXPECT_TRUE(DeniedUnlessDisclosed("*key*", "_key", kString));
  EXPECT_FALSE(DeniedUnlessDisclosed("*key*", "keys", kString));
  EXPECT_FALSE(DeniedUnlessDisclosed("*key*", "key", "[B"));
  EXPECT_FALSE(DeniedUnlessDisclosed("*key*", "key", "[C"));
  EXPECT_FALSE(DeniedUnlessDisclosed("*key*", "key", "J"));
  EXPECT_FALSE(DeniedUnlessDisclosed("*key*", "key", "Ljavax/crypto/SecretKey;"));
  EXPECT_FALSE(DeniedUnlessDisclosed("*key*", "secretKey", kString));
  EXPECT_FALSE(DeniedUnlessDisclosed("*key*", "apikey", kString));
  EXPECT_FALSE(DeniedUnlessDisclosed("key", "key", kString));
  EXPECT_FALSE(DeniedUnlessDisclosed("*token*", "token", kString));
  EXPECT_FALSE(DeniedUnlessDisclosed("*secret*", "secret", kString));
}

TEST(DenyRuleTest, OtherPatternsAreGlobsOnTheWholeName) {
  EXPECT_TRUE(Denies("secret*", "secretary"));
  EXPECT_TRUE(Denies("*_pwd", "db_pwd"));
  EXPECT_FALSE(Denies("*_pwd", "pwdHint"));
  EXPECT_FALSE(Denies("secret*", "secretary", "I"));
  EXPECT_EQ(DenyRuleWord("*key*"), "key");
  EXPECT_EQ(DenyRuleWord("*api_key*"), "apikey");
  EXPECT_EQ(DenyRuleWord("*a.b*"), "");
  EXPECT_EQ(DenyRuleWord("key*"), "");
}

}  // namespace
}  // namespace tracespec
