// Tests for validator/jml/clauses.h: flattening of nested spec cases,
// clause enumeration with locations and spans, quantifier bounds.
#include "validator/jml/clauses.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {
namespace {

using ::testing::ElementsAre;

TEST(ClausesTest, FlattenNestedCases) {
  auto s = ParseSpecText(
      "requires x > 0; ensures \\result > 0;\n"
      "also\n"
      "public behavior requires a != null; {| requires a.length > 0; ensures true; also requires "
      "a.length == 0; "
      "signals (Exception e) true; |}",
      "t");
  ASSERT_TRUE(s.ok()) << s.status();
  std::vector<FlatCase> flat = FlattenSpecCases(s->spec);
  ASSERT_EQ(flat.size(), 3u);
  EXPECT_EQ(flat[0].label, "case 1 (lightweight)");
  EXPECT_EQ(flat[1].label, "case 2.1 (behavior)");
  EXPECT_EQ(flat[2].label, "case 2.2 (behavior)");
  EXPECT_EQ(flat[1].visibility, Visibility::kPublic);
  std::vector<std::string> clauses;
  for (const Clause* c : flat[2].clauses) clauses.push_back(PrintClause(*c));
  EXPECT_THAT(clauses, ElementsAre("requires a != null;", "requires a.length == 0;",
                                   "signals (Exception e) true;"));
}

TEST(ClausesTest, FlattenNestedCasesWithTheirOwnHeaders) {
  // Each nested case gets the headers around it (requires conjoined) and
  // the more specific behavior: its own under `behavior` or a lightweight
  // case, the enclosing one's when it names none.
  auto s = ParseSpecText(
      "public behavior requires x != 0;\n"
      "{| private normal_behavior requires x > 0;\n"
      "   {| requires x > 10; ensures \\result == 1; also behavior requires x <= 10; |}\n"
      "also exceptional_behavior requires x < 0; signals_only IllegalArgumentException; |}\n"
      "also\n"
      "requires x == 0; {| normal_behavior ensures \\result == 0; |}",
      "t");
  ASSERT_TRUE(s.ok()) << s.status();
  std::vector<FlatCase> flat = FlattenSpecCases(s->spec);
  ASSERT_EQ(flat.size(), 4u);
  EXPECT_EQ(flat[0].label, "case 1.1.1 (normal_behavior)");
  EXPECT_EQ(flat[0].visibility, Visibility::kPrivate);
  EXPECT_EQ(flat[1].label, "case 1.1.2 (normal_behavior)");
  EXPECT_EQ(flat[2].label, "case 1.2 (exceptional_behavior)");
  EXPECT_EQ(flat[2].visibility, Visibility::kPackage);
  EXPECT_EQ(flat[3].label, "case 2.1 (normal_behavior)");
  auto texts = [](const FlatCase& f) {
    std::vector<std::string> out;
    for (const Clause* c : f.clauses) out.push_back(PrintClause(*c));
    return out;
  };
  EXPECT_THAT(texts(flat[0]), ElementsAre("requires x != 0;", "requires x > 0;",
                                          "requires x > 10;", "ensures \\result == 1;"));
  EXPECT_THAT(texts(flat[2]), ElementsAre("requires x != 0;", "requires x < 0;",
                                          "signals_only IllegalArgumentException;"));
  EXPECT_THAT(texts(flat[3]), ElementsAre("requires x == 0;", "ensures \\result == 0;"));
}

TEST(ClausesTest, EnumerateClausesWithSpans) {
  auto s = ParseSpecText(
      "requires x > 0;\nensures \\result > 0;\nalso\nexceptional_behavior\n  requires x <= 0;\n  "
      "signals_only "
      "IllegalArgumentException;\nimplies_that\nrequires true;",
      "c.jml");
  ASSERT_TRUE(s.ok()) << s.status();
  std::vector<ClauseRef> refs = EnumerateClauses(s->spec);
  ASSERT_EQ(refs.size(), 5u);
  EXPECT_EQ(refs[0].location, "case 1 (lightweight)");
  EXPECT_EQ(refs[0].text, "requires x > 0;");
  EXPECT_EQ(refs[1].span.line, 2);
  EXPECT_EQ(refs[2].location, "case 2 (exceptional_behavior)");
  EXPECT_EQ(refs[3].span.ToString(), "c.jml:6:3");
  EXPECT_EQ(refs[3].span.end_column, 41);
  EXPECT_EQ(refs[4].location, "implies_that case 1 (lightweight)");
}

TEST(ClausesTest, QuantifierBounds) {
  auto e = ParseExpressionText(
      "(\\forall int i, j; 0 <= i && i < j && a.length > j && j != 3; a[i] <= a[j])");
  ASSERT_TRUE(e.ok());
  auto bounds = ExtractBounds(**e);
  ASSERT_EQ(bounds.size(), 2u);
  EXPECT_EQ(bounds[0].var, "i");
  ASSERT_EQ(bounds[0].lower.size(), 1u);
  EXPECT_EQ(PrintExpr(*bounds[0].lower[0].expr), "0");
  EXPECT_TRUE(bounds[0].lower[0].inclusive);
  ASSERT_EQ(bounds[0].upper.size(), 1u);
  EXPECT_EQ(PrintExpr(*bounds[0].upper[0].expr), "j");
  EXPECT_FALSE(bounds[0].upper[0].inclusive);
  ASSERT_EQ(bounds[1].lower.size(), 1u);
  EXPECT_EQ(PrintExpr(*bounds[1].lower[0].expr), "i");
  ASSERT_EQ(bounds[1].upper.size(), 1u);
  EXPECT_EQ(PrintExpr(*bounds[1].upper[0].expr), "a.length");
}

TEST(ClausesTest, BoundsWithArithmeticAndNone) {
  auto e = ParseExpressionText("(\\sum int i; 0 <= i && i + 1 < a.length; a[i])");
  ASSERT_TRUE(e.ok());
  auto bounds = ExtractBounds(**e);
  ASSERT_EQ(bounds.size(), 1u);
  EXPECT_EQ(bounds[0].lower.size(), 1u);
  EXPECT_TRUE(bounds[0].upper.empty());  // i + 1 < n is not of the form i < hi
  auto unbounded = ParseExpressionText("(\\exists int k; k * k == n)");
  ASSERT_TRUE(unbounded.ok());
  auto none = ExtractBounds(**unbounded);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_TRUE(none[0].lower.empty() && none[0].upper.empty());
}

TEST(ClausesTest, MentionsName) {
  auto e = ParseExpressionText("a[i] + (\\sum int i; true; i) + o.i");
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(MentionsName(**e, "i"));
  EXPECT_TRUE(MentionsName(**e, "o"));
  auto f = ParseExpressionText("(\\sum int i; true; i) + o.i");
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(MentionsName(**f, "i"));
}

}  // namespace
}  // namespace tracespec::jml
