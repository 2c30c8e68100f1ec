// Tests for common/name_words.h: sensitive names as whole words.
#include "common/name_words.h"

#include "gtest/gtest.h"

namespace tracespec {
namespace {

bool Mentions(const char* text, const char* name) {
  return NameWords(text).Find(name).has_value();
}

TEST(NameWordsTest, WholeWordsOfIdentifiersAndProse) {
  EXPECT_TRUE(Mentions("String accessToken = x;", "token"));
  EXPECT_TRUE(Mentions("ACCESS_TOKEN", "token"));
  EXPECT_TRUE(Mentions("the token is", "Token"));
  EXPECT_TRUE(Mentions("List<String> authTokens", "token"));
  EXPECT_TRUE(Mentions("getPassword()", "password"));
  EXPECT_TRUE(Mentions("int monthlySalaryCents = 5;", "salary"));
  EXPECT_TRUE(Mentions("HTTPSecretHeader", "secret"));
  EXPECT_TRUE(Mentions("token2", "token"));

  EXPECT_FALSE(Mentions("Search.tokenize(s)", "token"));
  EXPECT_FALSE(Mentions("m.keySet().size()", "apikey"));
  EXPECT_FALSE(Mentions("secretary", "secret"));
  EXPECT_FALSE(Mentions("passwordless", "password"));
  EXPECT_FALSE(Mentions("anything", ""));
}

TEST(NameWordsTest, NamesOfSeveralWordsSpanConsecutiveWords) {
  EXPECT_TRUE(Mentions("String apiKey;", "apikey"));
  EXPECT_TRUE(Mentions("API-KEY: x", "api_key"));
  EXPECT_TRUE(Mentions("a private key here", "private key"));
  EXPECT_TRUE(Mentions("loadPrivateKey(f)", "privatekey"));
  EXPECT_FALSE(Mentions("rapidKey", "apikey"));
  EXPECT_FALSE(Mentions("api keyboard", "apikey"));
}

TEST(NameWordsTest, TheSpanCoversTheWords) {
  NameWords words("x = accessToken;");
  std::optional<NameWords::Span> at = words.Find("access token");
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(at->begin, 4u);
  EXPECT_EQ(at->end, 15u);
}

}  // namespace
}  // namespace tracespec
