// Tests for validator/jml/ast.h: deep copies (with bound-variable symbols
// re-pointed), structural equality, and destruction of very tall trees.
#include "validator/jml/ast.h"

#include "gtest/gtest.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {
namespace {

TEST(AstTest, SameExprIgnoresSpansAndKeywordSpellings) {
  auto a = ParseExpressionText("a + (b * c)");
  auto b = ParseExpressionText("a\n +   b*c");
  auto c = ParseExpressionText("a + b * d");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_TRUE(SameExpr(**a, **b));
  EXPECT_FALSE(SameExpr(**a, **c));
  auto s1 = ParseSpecText("pre x; modifies y; post z;", "t");
  auto s2 = ParseSpecText("requires x; assignable y; ensures z;", "t");
  auto s3 = ParseSpecText("requires x; assignable y; ensures_redundantly z;", "t");
  ASSERT_TRUE(s1.ok() && s2.ok() && s3.ok());
  EXPECT_TRUE(SameMethodSpec(s1->spec, s2->spec));
  EXPECT_FALSE(SameMethodSpec(s2->spec, s3->spec));
}

TEST(AstTest, LiteralsCompareByValue) {
  auto a = ParseExpressionText("0x10 + 1.0 + 'a'");
  auto b = ParseExpressionText("16 + 1. + '\\u0061'");
  auto c = ParseExpressionText("16 + 1.0f + 'a'");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_TRUE(SameExpr(**a, **b));
  EXPECT_FALSE(SameExpr(**a, **c));
}

TEST(AstTest, CloneIsDeepAndRebindsBoundVariables) {
  auto e = ParseExpressionText("(\\forall int i; 0 <= i; i > x)");
  ASSERT_TRUE(e.ok());
  Expr& q = **e;
  // Simulate the checker's annotation of the body's `i`.
  Expr& body_i = *q.operands[1]->operands[0];
  body_i.sym.kind = SymbolKind::kBoundVar;
  body_i.sym.binder = &q;
  body_i.type = Type::Int();
  ExprPtr copy = CloneExpr(q);
  EXPECT_TRUE(SameExpr(q, *copy));
  EXPECT_NE(copy->operands[0].get(), q.operands[0].get());
  const Expr& copy_i = *copy->operands[1]->operands[0];
  EXPECT_EQ(copy_i.sym.binder, copy.get());
  EXPECT_EQ(copy_i.type, Type::Int());
  auto spec = ParseSpecText("requires a; {| ensures b; also ensures c; |}", "t");
  ASSERT_TRUE(spec.ok());
  MethodSpec s2 = CloneMethodSpec(spec->spec);
  EXPECT_TRUE(SameMethodSpec(spec->spec, s2));
  EXPECT_EQ(PrintMethodSpec(s2), PrintMethodSpec(spec->spec));
}

TEST(AstTest, TallTreesAreDestroyedIteratively) {
  ExprPtr e = std::make_unique<Expr>();
  e->kind = ExprKind::kName;
  e->name = "x";
  for (int i = 0; i < 200000; ++i) {
    auto n = std::make_unique<Expr>();
    n->kind = ExprKind::kUnary;
    n->unary_op = UnaryOp::kNot;
    n->operands.push_back(std::move(e));
    e = std::move(n);
  }
  e.reset();  // must not overflow the stack
  SUCCEED();
}

TEST(AstTest, Modifiers) {
  EXPECT_EQ(ModifierBit("pure", true), kModPure);
  EXPECT_EQ(ModifierBit("pure", false), 0u);
  EXPECT_EQ(ModifierBit("public", false), kModPublic);
  EXPECT_EQ(ModifierText(kModStatic | kModPublic | kModPure), "public static pure");
  Modifiers m;
  m.bits = kModProtected;
  EXPECT_EQ(m.visibility(), Visibility::kProtected);
}

}  // namespace
}  // namespace tracespec::jml
