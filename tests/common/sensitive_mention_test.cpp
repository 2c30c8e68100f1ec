// Tests for common/sensitive_mention.h: a sensitive name counts where what
// the text does with it can carry data.
#include "common/sensitive_mention.h"

#include "gtest/gtest.h"

namespace tracespec {
namespace {

bool Mentions(const char* text, const char* name, const std::set<std::string>* plain = nullptr) {
  return FindSensitiveMention(text, name, plain).has_value();
}

TEST(SensitiveMentionTest, CommentsAndLiteralsCountAsText) {
  EXPECT_TRUE(Mentions("// The password of the day is irrelevant here.\nEcho.echo(\"x\");",
                       "password"));
  EXPECT_TRUE(Mentions("/* token */ f();", "token"));
  EXPECT_TRUE(Mentions("f(\"my token\");", "token"));
  EXPECT_TRUE(Mentions("f(\"\"\"\n  the secret\n  \"\"\");", "secret"));
  EXPECT_FALSE(Mentions("f(\"tokenize me\");", "token"));
}

TEST(SensitiveMentionTest, AValueNamedForTheSecretCounts) {
  EXPECT_TRUE(Mentions("String accessToken = \"k-3\";", "token"));
  EXPECT_TRUE(Mentions("String password = s;", "password"));
  EXPECT_TRUE(Mentions("long token = fixture();", "token"));
  EXPECT_TRUE(Mentions("vault.store(fixture.password());", "password"));
  EXPECT_TRUE(Mentions("login(user, API_TOKEN);", "token"));
  EXPECT_TRUE(Mentions("assertEquals(2, b.tokens);", "token"));  // type unknown
  EXPECT_TRUE(Mentions("var secret = 5;", "secret"));
  EXPECT_TRUE(Mentions("void check(String password) {", "password"));
}

TEST(SensitiveMentionTest, AValueOfAPlainTypeDoesNot) {
  EXPECT_FALSE(Mentions("int tokens = 5; assertEquals(5, tokens);", "token"));
  EXPECT_FALSE(Mentions("boolean hasToken = ok(); assertTrue(hasToken);", "token"));
  // Unless the statement spells data: a salary is an int.
  EXPECT_TRUE(Mentions("int monthlySalaryCents = 812500;", "salary"));
  std::set<std::string> plain = {"tokens"};
  EXPECT_FALSE(Mentions("assertEquals(2, b.tokens);", "token", &plain));
  // A declaration in the text wins over what was recorded elsewhere.
  EXPECT_TRUE(Mentions("String tokens = f(); g(tokens);", "token", &plain));
}

TEST(SensitiveMentionTest, TypesCountOnlyBesideDataAMethodsOwnNameNever) {
  EXPECT_FALSE(Mentions("TokenBucket b = new TokenBucket(5);", "token"));
  EXPECT_FALSE(Mentions("@Test void takesWhileTokensLast() {", "token"));
  EXPECT_FALSE(Mentions("Test budget.TokenBucketTest#takesWhileTokensLast:", "token"));
  EXPECT_TRUE(Mentions("Password p = new Password(\"hunter2\");", "password"));
  EXPECT_TRUE(Mentions("TokenBucket b = new TokenBucket(123456);", "token"));
  EXPECT_FALSE(Mentions("@Test void takesTokens() { String s = \"a\"; }", "token"));
  EXPECT_FALSE(Mentions("see T#checksPassword, \"x\", 123456", "password"));
}

TEST(SensitiveMentionTest, ANameForAFactAboutTheSecretDoesNotCount) {
  EXPECT_FALSE(Mentions("assertEquals(1700003600L, Expiry.tokenExpiry(1700000000L, 3600));",
                        "token"));
  EXPECT_FALSE(Mentions("assertTrue(PasswordRules.longEnough(12, 12));", "password"));
  EXPECT_FALSE(Mentions("int n = passwordLength(\"abc\");", "password"));
  EXPECT_FALSE(Mentions("Search.tokenize(\"a b\");", "token"));
  EXPECT_FALSE(Mentions("m.keySet().size();", "apikey"));
}

TEST(SensitiveMentionTest, ImportsAndPackagesAreNotLookedAt) {
  EXPECT_FALSE(Mentions("package com.acme.token;\nimport com.acme.token.Bucket;", "token"));
  EXPECT_TRUE(Mentions("package p;\nString token = \"x\";", "token"));
}

TEST(SensitiveMentionTest, TheSpanIsTheWords) {
  std::optional<MentionSpan> at = FindSensitiveMention("x(); String apiToken = \"a\";", "token");
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(at->begin, 15u);
  EXPECT_EQ(at->end, 20u);
}

TEST(SensitiveMentionTest, PlainValueNamesAreFieldsRecordedOnlyWithPlainTypes) {
  v1::Observation o;
  v1::ObjectState* s = o.add_pre();
  auto add = [s](const char* name, const char* type, bool redacted) {
    v1::Field* f = s->add_fields();
    f->set_name(name);
    f->set_jvm_type(type);
    if (redacted) {
      f->mutable_value()->mutable_redacted();
    } else {
      f->mutable_value()->set_int_value(1);
    }
  };
  add("tokens", "I", false);
  add("count", "J", false);
  add("mixed", "I", false);
  add("mixed", "Ljava/lang/String;", false);
  add("pinned", "I", true);
  EXPECT_EQ(PlainValueNames({o}), (std::set<std::string>{"tokens"}));
}

}  // namespace
}  // namespace tracespec
