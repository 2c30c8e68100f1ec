// Tests for observer/probe/concat_recipe.h: the pieces and numbers of a
// concatenation recipe, and its substitution, which keeps the markers, the
// other text and the shape of what it substitutes. Recipes from real javac
// output are in class_file_test.cpp.
#include "observer/probe/concat_recipe.h"

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "observer/probe/substitute_value.h"

namespace tracespec::probe {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(ConcatRecipeTest, PiecesAreTheTextsBetweenTheMarkers) {
  EXPECT_THAT(RecipePieces("id 98765 for \1"), ElementsAre("id 98765 for "));
  EXPECT_THAT(RecipePieces("\1:48213/\1"), ElementsAre(":48213/"));
  EXPECT_THAT(RecipePieces("a\2b\1\1c"), ElementsAre("a", "b", "c"));
  EXPECT_THAT(RecipePieces("\1\1"), IsEmpty());
  EXPECT_THAT(RecipePieces(""), IsEmpty());
  // Modified UTF-8: U+0000 is two bytes, never a marker.
  EXPECT_THAT(RecipePieces("x\xC0\x80y\1"), ElementsAre("x\xC0\x80y"));
}

TEST(ConcatRecipeTest, NumbersAreTheRunsOfDigitsAndTheirNegativesAfterADash) {
  EXPECT_THAT(RecipeNumbers("id 98765 for "), ElementsAre(98765));
  EXPECT_THAT(RecipeNumbers("x=-90210;y=7"), ElementsAre(90210, -90210, 7));
  EXPECT_THAT(RecipeNumbers("2026-12-07"), ElementsAre(2026, 12, -12, 7, -7));
  EXPECT_THAT(RecipeNumbers("007"), ElementsAre(7));
  EXPECT_THAT(RecipeNumbers("no digits"), IsEmpty());
  EXPECT_THAT(RecipeNumbers("-9223372036854775808 9223372036854775808"),
              ElementsAre(std::numeric_limits<int64_t>::min()));
  EXPECT_THAT(RecipeNumbers("99999999999999999999"), IsEmpty());
}

TEST(ConcatRecipeTest, ADecimalSubstituteKeepsSignAndDigitsAndDiffers) {
  for (int64_t value : std::vector<int64_t>{0, 7, -7, 1025, 48213, -90210, 999999,
                                            std::numeric_limits<int64_t>::max(),
                                            std::numeric_limits<int64_t>::min()}) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      int64_t out = SubstituteDecimal(seed, value);
      EXPECT_NE(out, value) << value;
      EXPECT_EQ(out < 0, value < 0) << value << " " << out;
      std::string a = std::to_string(value);
      std::string b = std::to_string(out);
      EXPECT_EQ(a.size(), b.size()) << value << " " << out;
      EXPECT_EQ(SubstituteDecimal(seed, value), out);
    }
  }
  EXPECT_NE(SubstituteDecimal(1, 48213), SubstituteDecimal(2, 48213));
}

TEST(ConcatRecipeTest, DeniedPiecesAndNumbersAreSubstitutedInPlace) {
  auto texts = [](std::string_view piece) { return piece == "s3cr3t-value"; };
  auto numbers = [](int64_t value) { return value == 48213 || value == -90210; };
  RecipeSubstitution out = SubstituteRecipe(
      1, "\1:48213/\1\2s3cr3t-value\1x=-90210, 0048213, 12\1", texts, numbers);
  ASSERT_TRUE(out.changed());
  // The markers and the text around the substitutes are as they were.
  const std::string& r = out.recipe;
  ASSERT_EQ(r.size(), std::string_view("\1:48213/\1\2s3cr3t-value\1x=-90210, 0048213, 12\1").size());
  EXPECT_EQ(r.substr(0, 2), "\1:");
  EXPECT_EQ(r.substr(7, 3), "/\1\2");
  EXPECT_EQ(r.substr(22, 4), "\1x=-");
  EXPECT_EQ(r.substr(31, 2), ", ");
  EXPECT_EQ(r.substr(40, 5), ", 12\1");
  // The whole piece, by the text rule.
  EXPECT_EQ(r.substr(10, 12), SubstituteModifiedUtf8(1, "s3cr3t-value"));
  EXPECT_THAT(out.texts, ElementsAre(SubstituteModifiedUtf8(1, "s3cr3t-value")));
  // The numbers, by the decimal rule, leading zeros kept.
  int64_t pin = SubstituteDecimal(1, 48213);
  int64_t negative = SubstituteDecimal(1, -90210);
  EXPECT_EQ(r.substr(2, 5), std::to_string(pin));
  EXPECT_EQ(r.substr(26, 5), std::to_string(-negative));
  EXPECT_EQ(r.substr(33, 7), "00" + std::to_string(pin));
  EXPECT_THAT(out.numbers, ElementsAre(pin, negative, pin));
  for (const std::string& piece : RecipePieces(r)) {
    EXPECT_FALSE(texts(piece)) << piece;
    for (int64_t value : RecipeNumbers(piece)) EXPECT_FALSE(numbers(value)) << value;
  }
  // Deterministic in the seed.
  EXPECT_EQ(SubstituteRecipe(1, "\1:48213/\1", texts, numbers).recipe, r.substr(0, 9));
}

TEST(ConcatRecipeTest, ADashThatIsNoSignLeavesTheDigitsToBeMatched) {
  auto numbers = [](int64_t value) { return value == 48213; };
  RecipeSubstitution out =
      SubstituteRecipe(5, "ref 2026-48213\1", [](std::string_view) { return false; }, numbers);
  EXPECT_EQ(out.recipe, "ref 2026-" + std::to_string(SubstituteDecimal(5, 48213)) + "\1");
  EXPECT_THAT(out.numbers, ElementsAre(SubstituteDecimal(5, 48213)));
}

TEST(ConcatRecipeTest, ARecipeWithoutDeniedLiteralsIsUnchanged) {
  RecipeSubstitution out =
      SubstituteRecipe(1, "id 98765 for \1", [](std::string_view) { return false; },
                       [](int64_t) { return false; });
  EXPECT_FALSE(out.changed());
  EXPECT_EQ(out.recipe, "id 98765 for \1");
}

}  // namespace
}  // namespace tracespec::probe
