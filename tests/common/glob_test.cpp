// Tests for common/glob.h.
#include "common/glob.h"

#include "gtest/gtest.h"

namespace tracespec {
namespace {

TEST(GlobTest, Literals) {
  EXPECT_TRUE(GlobMatch("balance", "balance"));
  EXPECT_FALSE(GlobMatch("balance", "balances"));
  EXPECT_FALSE(GlobMatch("balance", "Balance"));
  EXPECT_TRUE(GlobMatch("balance", "Balance", /*ignore_case=*/true));
  EXPECT_TRUE(GlobMatch("", ""));
  EXPECT_FALSE(GlobMatch("", "a"));
}

TEST(GlobTest, Stars) {
  EXPECT_TRUE(GlobMatch("*key*", "auditKey", /*ignore_case=*/true));
  EXPECT_TRUE(GlobMatch("*key*", "key"));
  EXPECT_FALSE(GlobMatch("*key*", "kez"));
  EXPECT_TRUE(GlobMatch("bank.*", "bank.Account"));
  EXPECT_FALSE(GlobMatch("bank.*", "banking.Account"));
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("a*b*c", "axxbyyc"));
  EXPECT_FALSE(GlobMatch("a*b*c", "axxbyy"));
  EXPECT_TRUE(GlobMatch("**a", "bba"));
}

TEST(GlobTest, QuestionMark) {
  EXPECT_TRUE(GlobMatch("a?c", "abc"));
  EXPECT_FALSE(GlobMatch("a?c", "ac"));
}

TEST(GlobTest, PatternsAreToldFromPlainNames) {
  EXPECT_TRUE(IsGlobPattern("*key*"));
  EXPECT_TRUE(IsGlobPattern("a?c"));
  EXPECT_FALSE(IsGlobPattern("pin"));
  EXPECT_FALSE(IsGlobPattern("bank.AccountTest"));
}

}  // namespace
}  // namespace tracespec
