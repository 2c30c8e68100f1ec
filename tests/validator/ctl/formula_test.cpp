// Tests for the CTL parser: precedence, printing, and error columns.
#include "validator/ctl/formula.h"

#include "gtest/gtest.h"

namespace tracespec::ctl {
namespace {

std::string Canonical(const std::string& text) {
  auto f = ParseFormula(text);
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? f->ToString() : "";
}

std::string ErrorOf(const std::string& text) {
  auto f = ParseFormula(text);
  EXPECT_FALSE(f.ok()) << text;
  return f.ok() ? "" : std::string(f.status().message());
}

TEST(Formula, PrecedenceFromLoosestToTightest) {
  // <-> looser than ->, looser than |, looser than &, looser than prefix ops.
  auto f = ParseFormula("a <-> b -> c | d & !e");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->nodes[f->root()].op, Op::kIff);
  EXPECT_EQ(f->ToString(), "a <-> b -> c | d & !e");
  EXPECT_EQ(Canonical("(a <-> b) -> c"), "(a <-> b) -> c");
  EXPECT_EQ(Canonical("AG p -> EF q"), "AG p -> EF q");
  auto g = ParseFormula("AG p -> EF q");
  EXPECT_EQ(g->nodes[g->root()].op, Op::kImplies);
  EXPECT_EQ(Canonical("AG (p -> EF q)"), "AG (p -> EF q)");
  EXPECT_EQ(Canonical("!p & q"), "!p & q");
  EXPECT_EQ(Canonical("!(p & q)"), "!(p & q)");
}

TEST(Formula, ImplicationIsRightAssociativeOthersLeft) {
  auto f = ParseFormula("a -> b -> c");
  ASSERT_TRUE(f.ok());
  const Formula::Node& root = f->nodes[f->root()];
  EXPECT_EQ(f->nodes[root.rhs].op, Op::kImplies);
  EXPECT_EQ(Canonical("(a -> b) -> c"), "(a -> b) -> c");
  EXPECT_EQ(Canonical("a | b | c"), "a | b | c");
  EXPECT_EQ(Canonical("a | (b | c)"), "a | (b | c)");
}

TEST(Formula, UntilOperatorsAndNestedPrefixes) {
  EXPECT_EQ(Canonical("E[ p U q ]"), "E[p U q]");
  EXPECT_EQ(Canonical("A[!bad U (g | s4)]"), "A[!bad U g | s4]");
  EXPECT_EQ(Canonical("AG EF AX EX AF EG p"), "AG EF AX EX AF EG p");
  EXPECT_EQ(Canonical("EF(g)"), "EF g");
  EXPECT_EQ(Canonical("true & !false"), "true & !false");
}

TEST(Formula, NamesWithPunctuationAndQuotes) {
  EXPECT_EQ(Canonical("state=APPROVED & approved=true"), "state=APPROVED & approved=true");
  EXPECT_EQ(Canonical("p->q"), "p -> q");
  EXPECT_EQ(Canonical("\"send(1)\" | \"E\""), "\"send(1)\" | \"E\"");
  auto f = ParseFormula("\"E\"");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->nodes[0].op, Op::kAtom);
  EXPECT_EQ(f->nodes[0].atom, "E");
}

TEST(Formula, ErrorsNameTheColumn) {
  EXPECT_EQ(ErrorOf("EF (g"), "formula \"EF (g\": column 6: expected ')' to close the '(' at column 4, found the end of the formula");
  EXPECT_EQ(ErrorOf("p & & q"), "formula \"p & & q\": column 5: expected a proposition, 'true', 'false', '(', a prefix operator or E[/A[, found '&'");
  EXPECT_EQ(ErrorOf("E[p q]"), "formula \"E[p q]\": column 5: expected 'U', found 'q'");
  EXPECT_EQ(ErrorOf("E p"), "formula \"E p\": column 3: expected '[' after 'E' (as in E[p U q]), found 'p'");
  EXPECT_EQ(ErrorOf("p q"), "formula \"p q\": column 3: expected an operator or the end of the formula, found 'q'");
  EXPECT_EQ(ErrorOf("p ? q"), "formula \"p ? q\": column 3: unexpected character '?'");
  EXPECT_EQ(ErrorOf("AG"), "formula \"AG\": column 3: expected a proposition, 'true', 'false', '(', a prefix operator or E[/A[, found the end of the formula");
  EXPECT_EQ(ErrorOf("\"open"), "formula \"\"open\": column 1: unterminated quoted name");
  EXPECT_EQ(ErrorOf("A[p U q"), "formula \"A[p U q\": column 8: expected ']' to close the '[' of A[... U ...], found the end of the formula");
}

TEST(Formula, SizeIsBounded) {
  std::string big = "p";
  for (int i = 0; i < 20000; ++i) big += " & p";
  auto f = ParseFormula(big);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("column 1: formula has more than 20000 operators and operands"),
            std::string::npos);
  std::string nested(1001, '!');
  EXPECT_NE(ErrorOf(nested + "p").find("formula nested too deeply"), std::string::npos);
}

TEST(Formula, HasTemporal) {
  auto f = ParseFormula("p & EF q");
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->HasTemporal(f->root()));
  EXPECT_FALSE(f->HasTemporal(f->nodes[f->root()].lhs));
}

}  // namespace
}  // namespace tracespec::ctl
