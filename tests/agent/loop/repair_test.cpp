// The pre-check and repair layer: syntax errors with positions, guards for
// undefined result and array accesses, guards already present left alone.
#include "agent/loop/repair.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec::loop {
namespace {

using ::testing::HasSubstr;

TEST(RepairTest, GuardsResultElementsAndLengths) {
  auto prepared = PrepareCandidate(
      "//@ ensures \\result[0] == x;\n//@ ensures \\result.length == n;\n");
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  ASSERT_EQ(prepared->repairs.size(), 2u);
  EXPECT_EQ(prepared->repairs[0].clause, "ensures \\result[0] == x;");
  EXPECT_EQ(prepared->repairs[0].repaired,
            "ensures \\result != null && \\result.length >= 1 ==> \\result[0] == x;");
  EXPECT_THAT(prepared->repairs[0].reason, HasSubstr("\\result[0] is undefined unless"));
  EXPECT_EQ(prepared->repairs[1].repaired, "ensures \\result != null ==> \\result.length == n;");
  EXPECT_THAT(prepared->jml,
              HasSubstr("//@ ensures \\result != null && \\result.length >= 1 ==> \\result[0] == x;"));
  EXPECT_THAT(FormatRepairs(prepared->repairs), HasSubstr("  was: ensures \\result[0] == x;\n"));
}

TEST(RepairTest, GuardsComputedIndexesButNotQuantifiedOnes) {
  auto prepared = PrepareCandidate(
      "//@ ensures a[\\result] == key;\n"
      "//@ ensures (\\forall int i; 0 <= i && i < a.length; a[i] >= 0);\n");
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  ASSERT_EQ(prepared->repairs.size(), 1u);
  EXPECT_EQ(prepared->repairs[0].repaired,
            "ensures 0 <= \\result && \\result < a.length ==> a[\\result] == key;");
}

// An index inside \old is read in the pre-state, and so is its guard: pop's
// `\old(items[size - 1])` once got `0 <= size - 1 ==>` of the post-state,
// false after popping the last element (the clause then said nothing there).
TEST(RepairTest, AnIndexInsideOldIsGuardedInThePreState) {
  auto prepared = PrepareCandidate("//@ ensures \\result == \\old(items[size - 1]);\n");
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  ASSERT_EQ(prepared->repairs.size(), 1u);
  EXPECT_EQ(prepared->repairs[0].repaired,
            "ensures \\old(0 <= size - 1) && \\old(size - 1 < items.length) ==> \\result == "
            "\\old(items[size - 1]);");
}

TEST(RepairTest, LeavesStatedGuardsAndRequiresAlone) {
  std::string text =
      "//@ requires a[0] > 0;\n"
      "//@ ensures \\result != null && \\result.length > 0 ==> \\result[0] == 1;\n"
      "//@ ensures \\result == -1 || 0 <= \\result && \\result < a.length && a[\\result] == k;\n";
  auto prepared = PrepareCandidate(text);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  EXPECT_TRUE(prepared->repairs.empty());
  EXPECT_EQ(prepared->jml, text);  // the model's own text, untouched
}

TEST(RepairTest, SyntaxErrorsNameThePosition) {
  auto prepared = PrepareCandidate("//@ requires x > 0;\n//@ ensures balance == ;\n");
  ASSERT_FALSE(prepared.ok());
  EXPECT_EQ(prepared.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(prepared.status().message(), HasSubstr("candidate.jml:2:"));
}

}  // namespace
}  // namespace tracespec::loop
