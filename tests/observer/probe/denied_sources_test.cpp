#include "observer/probe/denied_sources.h"

#include <cstdint>
#include <string>
#include <vector>

#include "common/utf8.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec::probe {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

TEST(DeniedSourcesTest, EnvironmentEntriesTheRulesNameSortedByName) {
  char a[] = "PATH=/usr/bin";
  char b[] = "DB_PASSWORD=Rk4Tz8Qw";
  char c[] = "github_token=abc=def";  // the value may hold '='
  char d[] = "NOVALUE";
  char e[] = "=odd";
  char f[] = "API_TOKEN_TTL=300";
  char* environment[] = {a, b, c, d, e, f, nullptr};
  EXPECT_THAT(DeniedEnvironment({"db_pass*", "*_TOKEN"}, environment),
              ElementsAre(Pair("DB_PASSWORD", "Rk4Tz8Qw"), Pair("github_token", "abc=def")));
  EXPECT_TRUE(DeniedEnvironment({}, environment).empty());
  EXPECT_TRUE(DeniedEnvironment({"*"}, nullptr).empty());
}

TEST(DeniedSourcesTest, NamesAreMatchedWholeAndCaseInsensitively) {
  std::vector<std::string> rules = {"app.pin", "db.*"};
  EXPECT_TRUE(DeniesSourceName(rules, "APP.PIN"));
  EXPECT_TRUE(DeniesSourceName(rules, "db.password"));
  EXPECT_FALSE(DeniesSourceName(rules, "app.pin.length"));
  EXPECT_FALSE(DeniesSourceName(rules, "xdb.password"));
}

TEST(DeniedSourcesTest, AnEnvironmentValuesSubstituteKeepsItsShape) {
  std::string value = "Rk4Tz8Qw-42/é€";
  std::string out = SubstituteUtf8(7, value);
  EXPECT_NE(out, value);
  EXPECT_EQ(out, SubstituteUtf8(7, value));  // deterministic
  EXPECT_NE(out, SubstituteUtf8(8, value));
  std::u16string in16 = Utf8ToUtf16(value), out16 = Utf8ToUtf16(out);
  ASSERT_EQ(in16.size(), out16.size());
  for (size_t i = 0; i < in16.size(); ++i) {
    char16_t x = in16[i], y = out16[i];
    if (x >= 'A' && x <= 'Z') EXPECT_TRUE(y >= 'A' && y <= 'Z') << i;
    if (x >= 'a' && x <= 'z') EXPECT_TRUE(y >= 'a' && y <= 'z') << i;
    if (x >= '0' && x <= '9') EXPECT_TRUE(y >= '0' && y <= '9') << i;
    if (x == '-' || x == '/') EXPECT_EQ(y, x) << i;
    if (x >= 0x80) EXPECT_EQ(x >> 8, y >> 8) << i;
  }
  // Digits stay digits: a number held as text still parses.
  int64_t n = 0;
  EXPECT_TRUE(ParseDecimal(SubstituteUtf8(1, "48213"), &n));
}

TEST(DeniedSourcesTest, DecimalIntegersAreTheWholeText) {
  int64_t n = 0;
  EXPECT_TRUE(ParseDecimal("48213", &n));
  EXPECT_EQ(n, 48213);
  EXPECT_TRUE(ParseDecimal("-7", &n));
  EXPECT_EQ(n, -7);
  EXPECT_FALSE(ParseDecimal("", &n));
  EXPECT_FALSE(ParseDecimal("12ab", &n));
  EXPECT_FALSE(ParseDecimal("99999999999999999999", &n));
  EXPECT_FALSE(ParseDecimal(" 12", &n));
}

}  // namespace
}  // namespace tracespec::probe
