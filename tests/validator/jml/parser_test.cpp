// Tests for validator/jml/parser.h: every expression and clause construct,
// spec cases, class-level clauses, in-body annotations, and the positions
// and wording of syntax errors.
#include "validator/jml/parser.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {
namespace {

using ::testing::HasSubstr;

// A fully parenthesized rendering that shows the tree's shape.
std::string Sexp(const Expr& e) {
  std::vector<std::string> parts;
  for (const auto& op : e.operands) parts.push_back(Sexp(*op));
  std::string args = absl::StrJoin(parts, " ");
  switch (e.kind) {
    case ExprKind::kLiteral:
      return PrintLiteral(e.literal);
    case ExprKind::kName:
      return e.name;
    case ExprKind::kThis:
      return "this";
    case ExprKind::kResult:
      return "\\result";
    case ExprKind::kUnary:
      return absl::StrCat("(", UnaryOpText(e.unary_op), " ", args, ")");
    case ExprKind::kBinary:
      return absl::StrCat("(", BinaryOpText(e.binary_op), " ", args, ")");
    case ExprKind::kConditional:
      return absl::StrCat("(? ", args, ")");
    case ExprKind::kFieldAccess:
      return absl::StrCat("(. ", args, " ", e.name, ")");
    case ExprKind::kArrayAccess:
      return absl::StrCat("([] ", args, ")");
    case ExprKind::kMethodCall:
      return absl::StrCat("(call", e.flag ? "." : "", " ", e.name, parts.empty() ? "" : " ", args,
                          ")");
    case ExprKind::kCast:
      return absl::StrCat("(cast ", PrintTypeRef(e.type_ref), " ", args, ")");
    case ExprKind::kInstanceOf:
      return absl::StrCat("(instanceof ", args, " ", PrintTypeRef(e.type_ref), ")");
    case ExprKind::kQuantifier: {
      std::vector<std::string> vars;
      for (const auto& v : e.bound_vars) vars.push_back(v.name);
      return absl::StrCat("(", QuantifierText(e.quantifier), " ", PrintTypeRef(e.type_ref), " ",
                          absl::StrJoin(vars, ","), e.flag ? " range " : " ", args, ")");
    }
    case ExprKind::kOld:
      return absl::StrCat("(", e.flag ? "\\pre" : "\\old", " ", args, e.name.empty() ? "" : " @",
                          e.name, ")");
    default:
      return PrintExpr(e);
  }
}

std::string ParseSexp(const std::string& text) {
  auto e = ParseExpressionText(text);
  if (!e.ok()) return std::string(e.status().message());
  return Sexp(**e);
}

std::string ParseError(const std::string& text) {
  auto e = ParseExpressionText(text, "Spec.jml");
  if (e.ok()) return "parsed: " + PrintExpr(**e);
  return std::string(e.status().message());
}

MethodSpec ParseSpec(const std::string& text) {
  auto s = ParseSpecText(text, "spec.txt");
  EXPECT_TRUE(s.ok()) << s.status();
  if (!s.ok()) return MethodSpec();
  return std::move(s->spec);
}

std::string SpecError(const std::string& text) {
  auto s = ParseSpecText(text, "Account.jml");
  if (s.ok()) return "parsed: " + PrintMethodSpec(s->spec);
  return std::string(s.status().message());
}

// ---- Expressions ----

TEST(ParserTest, JavaPrecedence) {
  EXPECT_EQ(ParseSexp("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(ParseSexp("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(ParseSexp("a << 1 + 2"), "(<< a (+ 1 2))");
  EXPECT_EQ(ParseSexp("a < b == c > d"), "(== (< a b) (> c d))");
  EXPECT_EQ(ParseSexp("a & b ^ c | d"), "(| (^ (& a b) c) d)");
  EXPECT_EQ(ParseSexp("a || b && c"), "(|| a (&& b c))");
  EXPECT_EQ(ParseSexp("a == b & c"), "(& (== a b) c)");
  EXPECT_EQ(ParseSexp("-a * !b"), "(* (- a) (! b))");
  EXPECT_EQ(ParseSexp("~a >>> 2 >> 1"), "(>> (>>> (~ a) 2) 1)");
  EXPECT_EQ(ParseSexp("a % b / c"), "(/ (% a b) c)");
  EXPECT_EQ(ParseSexp("(a + b) * c"), "(* (+ a b) c)");
}

TEST(ParserTest, JmlLogicalOperators) {
  EXPECT_EQ(ParseSexp("a ==> b ==> c"), "(==> a (==> b c))");
  EXPECT_EQ(ParseSexp("a <== b <== c"), "(<== (<== a b) c)");
  EXPECT_EQ(ParseSexp("a <==> b <=!=> c"), "(<=!=> (<==> a b) c)");
  EXPECT_EQ(ParseSexp("a || b ==> c && d"), "(==> (|| a b) (&& c d))");
  EXPECT_EQ(ParseSexp("a ==> b <==> c ==> d"), "(<==> (==> a b) (==> c d))");
  EXPECT_EQ(ParseSexp("a ==> b ? c : d"), "(? (==> a b) c d)");
  EXPECT_EQ(ParseSexp("x <: y"), "(<: x y)");
}

TEST(ParserTest, PaperExample) {
  EXPECT_EQ(
      ParseSexp("\\result != null && \\result.length >= 1 ==> \\result[0] == celsius + 273.15"),
      "(==> (&& (!= \\result null) (>= (. \\result length) 1)) (== ([] \\result 0) (+ celsius "
      "273.15)))");
}

TEST(ParserTest, Conditional) {
  EXPECT_EQ(ParseSexp("a ? b : c ? d : e"), "(? a b (? c d e))");
  EXPECT_EQ(ParseSexp("a ? b ? c : d : e"), "(? a (? b c d) e)");
}

TEST(ParserTest, CastsAndInstanceof) {
  EXPECT_EQ(ParseSexp("(int) x + 1"), "(+ (cast int x) 1)");
  EXPECT_EQ(ParseSexp("(long) -x"), "(cast long (- x))");
  EXPECT_EQ(ParseSexp("(String) o"), "(cast String o)");
  EXPECT_EQ(ParseSexp("(java.lang.Integer) o"), "(cast java.lang.Integer o)");
  EXPECT_EQ(ParseSexp("(int[]) o"), "(cast int[] o)");
  EXPECT_EQ(ParseSexp("(\\bigint) x * y"), "(* (cast \\bigint x) y)");
  EXPECT_EQ(ParseSexp("(a) - b"), "(- a b)");  // a parenthesized name before '-' is not a cast
  EXPECT_EQ(ParseSexp("(a) + (b)"), "(+ a b)");
  EXPECT_EQ(ParseSexp("(T) (x)"), "(cast T x)");
  EXPECT_EQ(ParseSexp("x instanceof String && y instanceof int[]"),
            "(&& (instanceof x String) (instanceof y int[]))");
}

TEST(ParserTest, PostfixChains) {
  EXPECT_EQ(ParseSexp("a.b.c[i].d(x, y).e"), "(. (call. d ([] (. (. a b) c) i) x y) e)");
  EXPECT_EQ(ParseSexp("f()"), "(call f)");
  EXPECT_EQ(ParseSexp("Math.max(a, b)"), "(call. max Math a b)");
  EXPECT_EQ(ParseSexp("this.x + super.y"), "(+ (. this x) (. super y))");
  EXPECT_EQ(ParseSexp("a[i][j].length"), "(. ([] ([] a i) j) length)");
}

TEST(ParserTest, Literals) {
  EXPECT_EQ(ParseSexp("-2147483648"), "-2147483648");
  EXPECT_EQ(ParseSexp("-9223372036854775808L"), "-9223372036854775808L");
  EXPECT_EQ(ParseSexp("- 5"), "(- 5)");
  EXPECT_EQ(ParseSexp("0x10 + 010 + 0b10 + 1_0"), "(+ (+ (+ 16 8) 2) 10)");
  EXPECT_EQ(ParseSexp("'a' + \"b\\n\""), "(+ 'a' \"b\\n\")");
  EXPECT_EQ(ParseSexp("true && !false || null == null"), "(|| (&& true (! false)) (== null null))");
  EXPECT_EQ(ParseSexp("1.5f + 2.5d + 1e3"), "(+ (+ 1.5f 2.5) 1000.0)");
  EXPECT_THAT(ParseError("2147483648"), HasSubstr("integer number too large"));
}

TEST(ParserTest, Quantifiers) {
  EXPECT_EQ(ParseSexp("(\\forall int i; 0 <= i && i < a.length; a[i] > 0)"),
            "(\\forall int i range (&& (<= 0 i) (< i (. a length))) (> ([] a i) 0))");
  EXPECT_EQ(ParseSexp("(\\exists int i; a[i] == x)"), "(\\exists int i (== ([] a i) x))");
  EXPECT_EQ(ParseSexp("(\\forall int i; ; a[i] == x)"), "(\\forall int i (== ([] a i) x))");
  EXPECT_EQ(ParseSexp("(\\forall int i, j; 0 <= i && i < j && j < n; a[i] <= a[j])"),
            "(\\forall int i,j range (&& (&& (<= 0 i) (< i j)) (< j n)) (<= ([] a i) ([] a j)))");
  EXPECT_EQ(ParseSexp("(\\num_of int i; 0 <= i && i < a.length; a[i] == 0)"),
            "(\\num_of int i range (&& (<= 0 i) (< i (. a length))) (== ([] a i) 0))");
  EXPECT_EQ(
      ParseSexp("(\\sum int i; 0 <= i && i + 1 < a.length; a[i] * a[i + 1])"),
      "(\\sum int i range (&& (<= 0 i) (< (+ i 1) (. a length))) (* ([] a i) ([] a (+ i 1))))");
  EXPECT_EQ(ParseSexp("(\\product long k; 1 <= k && k <= n; k)"),
            "(\\product long k range (&& (<= 1 k) (<= k n)) k)");
  EXPECT_EQ(ParseSexp("(\\max int i; 0 <= i && i < n; a[i])"),
            "(\\max int i range (&& (<= 0 i) (< i n)) ([] a i))");
  EXPECT_EQ(ParseSexp("(\\min int i; 0 <= i && i < n; a[i])"),
            "(\\min int i range (&& (<= 0 i) (< i n)) ([] a i))");
  EXPECT_EQ(ParseSexp("(\\forall \\bigint x; x > 0; x * x > 0)"),
            "(\\forall \\bigint x range (> x 0) (> (* x x) 0))");
  EXPECT_EQ(ParseSexp("(\\forall non_null Object o; o.equals(o))"),
            "(\\forall Object o (call. equals o o))");
}

TEST(ParserTest, AQuantifierBodyMayBeAnUnparenthesizedQuantifier) {
  // The inner quantifier extends to the outer one's closing parenthesis.
  EXPECT_EQ(ParseSexp("(\\forall int j; 0 <= j && j < n; \\forall int i; 0 <= i && i < j; "
                      "a[i] <= a[j])"),
            "(\\forall int j range (&& (<= 0 j) (< j n)) (\\forall int i range (&& (<= 0 i) "
            "(< i j)) (<= ([] a i) ([] a j))))");
  EXPECT_EQ(ParseSexp("(\\exists int j; \\forall int i; 0 <= i && i < n; a[i] <= j)"),
            "(\\exists int j (\\forall int i range (&& (<= 0 i) (< i n)) (<= ([] a i) j)))");
  // A parenthesized quantifier as the range still takes a body after it.
  EXPECT_EQ(ParseSexp("(\\forall int j; (\\exists int i; i == j); j > 0)"),
            "(\\forall int j range (\\exists int i (== i j)) (> j 0))");
}

TEST(ParserTest, AnUnparenthesizedQuantifierExtendsAsFarRightAsPossible) {
  // Neither quantifier parenthesized (the commonest form in sorting code).
  EXPECT_EQ(ParseSexp("\\forall int j; 0 <= j && j < a.length; \\forall int i; 0 <= i && i < j; "
                      "a[i] <= a[j]"),
            "(\\forall int j range (&& (<= 0 j) (< j (. a length))) (\\forall int i range (&& "
            "(<= 0 i) (< i j)) (<= ([] a i) ([] a j))))");
  // The inner one parenthesized, the outer not.
  EXPECT_EQ(ParseSexp("\\forall int j; 0 <= j && j < n; (\\forall int i; 0 <= i && i < j; "
                      "a[i] <= a[j])"),
            "(\\forall int j range (&& (<= 0 j) (< j n)) (\\forall int i range (&& (<= 0 i) "
            "(< i j)) (<= ([] a i) ([] a j))))");
  // The body takes every operator to its right, the quantifier is an
  // operand of what is to its left.
  EXPECT_EQ(ParseSexp("x && \\forall int i; i > 0"), "(&& x (\\forall int i (> i 0)))");
  EXPECT_EQ(ParseSexp("\\result ==> \\exists int i; 0 <= i && i < n; a[i] == x || x < 0"),
            "(==> \\result (\\exists int i range (&& (<= 0 i) (< i n)) (|| (== ([] a i) x) "
            "(< x 0))))");
  // The generalised quantifiers chain the same way.
  EXPECT_EQ(ParseSexp("\\sum int i; 0 <= i && i < n; \\product int j; 0 <= j && j < i; a[j]"),
            "(\\sum int i range (&& (<= 0 i) (< i n)) (\\product int j range (&& (<= 0 j) (< j "
            "i)) ([] a j)))");
  EXPECT_EQ(ParseSexp("\\max int i; 0 <= i && i < n; \\min int j; 0 <= j && j < m; b[i][j]"),
            "(\\max int i range (&& (<= 0 i) (< i n)) (\\min int j range (&& (<= 0 j) (< j m)) "
            "([] ([] b i) j)))");
  EXPECT_EQ(ParseSexp("\\num_of int i; 0 <= i && i < n; \\exists int j; j == i; a[j] > 0"),
            "(\\num_of int i range (&& (<= 0 i) (< i n)) (\\exists int j range (== j i) (> ([] "
            "a j) 0)))");
  // \\max(\\lockset) is still the lock-set maximum, not a quantifier.
  EXPECT_EQ(ParseSexp("\\max(\\lockset)"), "\\max(\\lockset)");
  // Printed with the parentheses, which keep the meaning.
  auto e = ParseExpressionText("\\forall int j; 0 <= j; \\forall int i; i < j; a[i] <= a[j]");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(PrintExpr(**e),
            "(\\forall int j; 0 <= j; (\\forall int i; i < j; a[i] <= a[j]))");
}

TEST(ParserTest, LetBindsOneOrMoreVariables) {
  auto e = ParseExpressionText("(\\let int m = a + b; \\result == m * m)");
  ASSERT_TRUE(e.ok()) << e.status();
  const Expr& let = **e;
  ASSERT_EQ(let.kind, ExprKind::kLet);
  EXPECT_FALSE(let.flag);
  EXPECT_EQ(let.type_ref.name, "int");
  ASSERT_EQ(let.bound_vars.size(), 1u);
  EXPECT_EQ(let.bound_vars[0].name, "m");
  ASSERT_EQ(let.operands.size(), 2u);
  EXPECT_EQ(PrintExpr(*let.operands[0]), "a + b");
  EXPECT_EQ(PrintExpr(*let.operands[1]), "\\result == m * m");
  // Several bindings: each a kLet nested in the one before (flag set); one
  // without a type has the type of the binding before it.
  auto f = ParseExpressionText("(\\let int x = 1, long y = x + 1, z = y * 2; x + y + z)");
  ASSERT_TRUE(f.ok()) << f.status();
  const Expr& y = *(*f)->operands[1];
  ASSERT_EQ(y.kind, ExprKind::kLet);
  EXPECT_TRUE(y.flag);
  EXPECT_EQ(y.bound_vars[0].name, "y");
  const Expr& z = *y.operands[1];
  ASSERT_EQ(z.kind, ExprKind::kLet);
  EXPECT_TRUE(z.flag);
  EXPECT_EQ(z.type_ref.name, "long");
  EXPECT_EQ(PrintExpr(*z.operands[1]), "x + y + z");
  EXPECT_EQ(PrintExpr(**f), "(\\let int x = 1, long y = x + 1, long z = y * 2; x + y + z)");
  // Without parentheses the body extends to the end of its clause.
  MethodSpec s = ParseSpec("ensures \\let int m = \\old(a + b); \\result == m * m; ensures true;");
  ASSERT_EQ(s.cases.size(), 1u);
  ASSERT_EQ(s.cases[0].clauses.size(), 2u);
  EXPECT_EQ(PrintClause(s.cases[0].clauses[0]),
            "ensures (\\let int m = \\old(a + b); \\result == m * m);");
  // A binding needs its initializer.
  auto g = ParseExpressionText("(\\let int m; m)", "t");
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(std::string(g.status().message()),
              HasSubstr("t:1:12: expected '=' after the variable 'm' of \\let"));
}

TEST(ParserTest, AnUnparenthesizedQuantifierEndsWithItsClause) {
  // The ';' after the body is the clause's: a clause keyword, a case
  // keyword or the end of the text follows it.
  MethodSpec s = ParseSpec(
      "requires \\forall int i; 0 <= i && i < a.length; a[i] > 0;\n"
      "ensures \\forall int j; 0 <= j && j < a.length; \\forall int i; 0 <= i && i < j; "
      "a[i] <= a[j]; ensures \\exists int i; a[i] == \\result;\n"
      "also requires \\forall int i; a[i] != 0;");
  ASSERT_EQ(s.cases.size(), 2u);
  const auto& cl = s.cases[0].clauses;
  ASSERT_EQ(cl.size(), 3u);
  EXPECT_EQ(PrintClause(cl[0]), "requires (\\forall int i; 0 <= i && i < a.length; a[i] > 0);");
  EXPECT_EQ(PrintClause(cl[1]),
            "ensures (\\forall int j; 0 <= j && j < a.length; (\\forall int i; 0 <= i && i < j; "
            "a[i] <= a[j]));");
  EXPECT_EQ(PrintClause(cl[2]), "ensures (\\exists int i; a[i] == \\result);");
  EXPECT_EQ(PrintClause(s.cases[1].clauses[0]), "requires (\\forall int i; a[i] != 0);");
  // Inside parentheses a ';' always separates the range from the body,
  // whatever follows it.
  EXPECT_EQ(ParseSexp("(\\forall int i; also; ensures)"), "(\\forall int i range also ensures)");
}

TEST(ParserTest, AQuantifierBodyMayStartWithAKeywordNamedVariable) {
  // A variable named like a clause, statement or case keyword (`set`,
  // `old`, `pure`, `ensures`) at the start of the body: the operator after
  // it makes it a name, so the ';' before it separates range and body.
  MethodSpec s = ParseSpec(
      "requires \\forall int i; 0 <= i && i < n; set == i;\n"
      "ensures \\forall int i; 0 <= i && i < n; old < i; ensures true;\n"
      "ensures \\exists int i; 0 <= i; pure && ensures;\n"
      "ensures \\forall int i; 0 <= i; model instanceof Object;\n"
      "ensures \\forall int i; 0 <= i && i < 4; old + i < \\result;");
  ASSERT_EQ(s.cases.size(), 1u);
  const auto& cl = s.cases[0].clauses;
  ASSERT_EQ(cl.size(), 6u);
  EXPECT_EQ(PrintClause(cl[0]), "requires (\\forall int i; 0 <= i && i < n; set == i);");
  EXPECT_EQ(PrintClause(cl[1]), "ensures (\\forall int i; 0 <= i && i < n; old < i);");
  EXPECT_EQ(PrintClause(cl[2]), "ensures true;");
  EXPECT_EQ(PrintClause(cl[3]), "ensures (\\exists int i; 0 <= i; pure && ensures);");
  EXPECT_EQ(PrintClause(cl[4]), "ensures (\\forall int i; 0 <= i; model instanceof Object);");
  // `old`, `set` and modifiers are never followed by a unary operator.
  EXPECT_EQ(PrintClause(cl[5]), "ensures (\\forall int i; 0 <= i && i < 4; old + i < \\result);");
  // The keyword followed by an expression, a type or a name still starts
  // the next clause or declaration.
  MethodSpec t = ParseSpec(
      "requires \\forall int i; 0 <= i; ensures \\forall int j; j > 0; ensures -1 < 0;");
  ASSERT_EQ(t.cases.size(), 1u);
  ASSERT_EQ(t.cases[0].clauses.size(), 3u);
  EXPECT_EQ(PrintClause(t.cases[0].clauses[0]), "requires (\\forall int i; 0 <= i);");
  EXPECT_EQ(PrintClause(t.cases[0].clauses[1]), "ensures (\\forall int j; j > 0);");
  EXPECT_EQ(PrintClause(t.cases[0].clauses[2]), "ensures -1 < 0;");
}

TEST(ParserTest, ChainedComparisonsBecomeConjunctions) {
  EXPECT_EQ(ParseSexp("0 <= i < n"), "(&& (<= 0 i) (< i n))");
  EXPECT_EQ(ParseSexp("0 <= i < j <= n"), "(&& (&& (<= 0 i) (< i j)) (<= j n))");
  EXPECT_EQ(ParseSexp("n > i >= 0"), "(&& (> n i) (>= i 0))");
  EXPECT_EQ(ParseSexp("(a < b) < c"), "(< (< a b) c)");
}

TEST(ParserTest, JmlPrimaries) {
  EXPECT_EQ(ParseSexp("\\old(x) + \\old(this.y, Pre) + \\pre(z)"),
            "(+ (+ (\\old x) (\\old (. this y) @Pre)) (\\pre z))");
  EXPECT_EQ(ParseSexp("\\fresh(\\result)"), "\\fresh(\\result)");
  EXPECT_EQ(ParseSexp("\\nonnullelements(a)"), "\\nonnullelements(a)");
  EXPECT_EQ(ParseSexp("\\typeof(o) <: \\type(java.util.List)"),
            "(<: \\typeof(o) \\type(java.util.List))");
  EXPECT_EQ(ParseSexp("\\elemtype(\\typeof(a)) == \\type(int)"),
            "(== \\elemtype(\\typeof(a)) \\type(int))");
  EXPECT_EQ(ParseSexp("\\not_modified(x, a[*], o.*, b[1 .. 2])"),
            "\\not_modified(x, a[*], o.*, b[1 .. 2])");
  EXPECT_EQ(ParseSexp("(\\lblneg bad x < 0)"), "(\\lblneg bad x < 0)");
  EXPECT_EQ(ParseSexp("\\lockset"), "\\lockset");
  EXPECT_EQ(ParseSexp("\\max(\\lockset)"), "\\max(\\lockset)");
  EXPECT_EQ(ParseSexp("\\invariant_for(o)"), "\\invariant_for(o)");
  EXPECT_EQ(ParseSexp("(* anything goes *)"), "(* anything goes *)");
  EXPECT_EQ(ParseSexp("\\reach(x)"), "\\reach(x)");
}

TEST(ParserTest, CreationAndClassLiterals) {
  EXPECT_EQ(ParseSexp("new int[n]"), "new int[n]");
  EXPECT_EQ(ParseSexp("new int[] {1, 2}"), "new int[] {1, 2}");
  EXPECT_EQ(ParseSexp("new java.util.ArrayList<String>()"), "new java.util.ArrayList<String>()");
  EXPECT_EQ(ParseSexp("String.class == int[].class"), "(== String.class int[].class)");
  EXPECT_EQ(ParseSexp("Outer.this.x"), "(. Outer.this x)");
}

// ---- Expression errors: line:column and the construct named ----

TEST(ParserTest, ErrorPositionsAndMessages) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"x = 1",
       "Spec.jml:1:3: '=' is an assignment, which a specification cannot contain; use '==' to "
       "compare"},
      {"x += 1", "Spec.jml:1:3: assignment '+=' is not allowed in a specification expression"},
      {"x++ > 0", "Spec.jml:1:2: '++' has a side effect, which a specification cannot contain"},
      {"a +", "Spec.jml:1:4: expected an expression, found end of input"},
      {"(a + b", "Spec.jml:1:7: expected ')' to close '(', found end of input"},
      {"\\forall int i; i > 0;",
       "Spec.jml:1:21: expected the end of the expression, found ';'"},
      {"(\\forall int ; x)",
       "Spec.jml:1:14: expected a bound variable name in \\forall, found ';'"},
      {"(\\forall int i = 0; x)", "Spec.jml:1:16: a bound variable cannot have an initializer"},
      {"\\reslt > 0", "Spec.jml:1:1: unknown JML keyword '\\reslt'"},
      {"a[*] == 0",
       "Spec.jml:1:3: '[*]' denotes a set of locations; it is only allowed in assignable clauses "
       "and "
       "\\not_modified"},
      {"a[1..2] == 0",
       "Spec.jml:1:4: '..' ranges are only allowed in assignable clauses and \\not_modified"},
      {"a ==> b <== c",
       "Spec.jml:1:9: '<==' after '==>' needs parentheses to say which applies first"},
      {"x.", "Spec.jml:1:3: expected a field or method name after '.', found end of input"},
      {"f(a,)", "Spec.jml:1:5: expected an expression, found ')'"},
      {"if (x)", "Spec.jml:1:1: unexpected keyword 'if' in an expression"},
      {"\\old x", "Spec.jml:1:6: expected '(' after \\old, found 'x'"},
      {"a ? b", "Spec.jml:1:6: expected ':' in conditional expression, found end of input"},
      {"x # y", "Spec.jml:1:3: unexpected character '#'"},
      {"a\n  && 'xy'", "Spec.jml:2:6: unclosed character literal"},
  };
  for (const auto& c : cases) EXPECT_EQ(ParseError(c.text), c.message) << c.text;
}

TEST(ParserTest, DeepNestingIsRejectedNotCrashing) {
  std::string deep(5000, '(');
  EXPECT_THAT(ParseError(deep + "x"), HasSubstr("nested too deeply"));
  std::string chain = "x";
  for (int i = 0; i < 5000; ++i) chain += " + x";
  EXPECT_THAT(ParseError(chain), HasSubstr("nested too deeply"));
  std::string unary(5000, '!');
  EXPECT_THAT(ParseError(unary + "x"), HasSubstr("nested too deeply"));
}

TEST(ParserTest, SpansCoverTheConstruct) {
  auto e = ParseExpressionText("a +\n  b.c");
  ASSERT_TRUE(e.ok());
  const Expr& plus = **e;
  EXPECT_EQ(plus.span.line, 1);
  EXPECT_EQ(plus.span.column, 1);
  EXPECT_EQ(plus.span.end_line, 2);
  EXPECT_EQ(plus.span.end_column, 6);
  const Expr& field = *plus.operands[1];
  EXPECT_EQ(field.name_span.line, 2);
  EXPECT_EQ(field.name_span.column, 5);
}

// ---- Clauses and spec cases ----

TEST(ParserTest, TheLastClauseOfAnAnnotationMayLackItsSemicolon) {
  // At the end of the text, and before a clause on a later line.
  MethodSpec s = ParseSpec("requires x > 0\nensures \\result == x");
  ASSERT_EQ(s.cases.size(), 1u);
  ASSERT_EQ(s.cases[0].clauses.size(), 2u);
  EXPECT_EQ(s.cases[0].clauses[1].kind, ClauseKind::kEnsures);
  // Each is marked, for the type checker's note.
  EXPECT_TRUE(s.cases[0].clauses[0].semicolon_omitted);
  EXPECT_TRUE(s.cases[0].clauses[1].semicolon_omitted);
  EXPECT_FALSE(ParseSpec("requires x > 0;").cases[0].clauses[0].semicolon_omitted);
  // On one line a missing ';' between clauses is still an error.
  EXPECT_THAT(SpecError("requires x > 0 ensures y > 0;"), HasSubstr("expected ';'"));
}

TEST(ParserTest, LightweightClauses) {
  MethodSpec s = ParseSpec(
      "requires x > 0; pre y > 0; ensures \\result == x; post true;\n"
      "assignable \\nothing; modifies this.f; modifiable a[*], a[i], a[i .. j], o.*, C.f, this.*;\n"
      "signals (IllegalArgumentException e) x < 0; signals (Exception) true; exsures "
      "(RuntimeException);\n"
      "signals_only IllegalArgumentException, java.lang.IllegalStateException;\n"
      "requires_redundantly x != 0;");
  ASSERT_EQ(s.cases.size(), 1u);
  const SpecCase& c = s.cases[0];
  EXPECT_EQ(c.behavior, Behavior::kLightweight);
  ASSERT_EQ(c.clauses.size(), 12u);
  EXPECT_EQ(c.clauses[1].kind, ClauseKind::kRequires);
  EXPECT_EQ(c.clauses[3].kind, ClauseKind::kEnsures);
  EXPECT_EQ(c.clauses[4].kind, ClauseKind::kAssignable);
  EXPECT_EQ(c.clauses[4].store_refs[0].kind, StoreRef::Kind::kNothing);
  const auto& refs = c.clauses[6].store_refs;
  ASSERT_EQ(refs.size(), 6u);
  EXPECT_EQ(refs[0].kind, StoreRef::Kind::kAllElements);
  EXPECT_EQ(refs[1].kind, StoreRef::Kind::kLocation);
  EXPECT_EQ(refs[2].kind, StoreRef::Kind::kArrayRange);
  EXPECT_EQ(refs[3].kind, StoreRef::Kind::kAllFields);
  EXPECT_EQ(refs[4].kind, StoreRef::Kind::kLocation);
  EXPECT_EQ(refs[5].kind, StoreRef::Kind::kAllFields);
  EXPECT_EQ(c.clauses[7].exception_type.name, "IllegalArgumentException");
  EXPECT_EQ(c.clauses[7].exception_var, "e");
  EXPECT_EQ(c.clauses[8].exception_var, "");
  EXPECT_EQ(c.clauses[9].pred, nullptr);
  ASSERT_EQ(c.clauses[10].types.size(), 2u);
  EXPECT_EQ(c.clauses[10].types[1].name, "java.lang.IllegalStateException");
  EXPECT_TRUE(c.clauses[11].redundant);
  EXPECT_EQ(PrintClause(c.clauses[2]), "ensures \\result == x;");
  EXPECT_EQ(PrintClause(c.clauses[6]), "assignable a[*], a[i], a[i .. j], o.*, C.f, this.*;");
}

TEST(ParserTest, AlsoWithExceptionalBehavior) {
  MethodSpec s = ParseSpec(
      "/*@ public normal_behavior\n"
      "  @   requires amount > 0;\n"
      "  @   assignable balance;\n"
      "  @   ensures balance == \\old(balance) + amount;\n"
      "  @ also\n"
      "  @ public exceptional_behavior\n"
      "  @   requires amount <= 0;\n"
      "  @   assignable \\nothing;\n"
      "  @   signals_only IllegalArgumentException;\n"
      "  @   signals (IllegalArgumentException e) amount <= 0;\n"
      "  @*/");
  ASSERT_EQ(s.cases.size(), 2u);
  EXPECT_EQ(s.cases[0].behavior, Behavior::kNormal);
  EXPECT_EQ(s.cases[0].visibility, Visibility::kPublic);
  EXPECT_EQ(s.cases[1].behavior, Behavior::kExceptional);
  EXPECT_EQ(s.cases[1].clauses.size(), 4u);
  EXPECT_EQ(s.cases[1].span.line, 6);
}

TEST(ParserTest, BehaviourSpellingsAndVisibility) {
  MethodSpec s = ParseSpec(
      "private behaviour requires a; also normal_behaviour ensures b; also protected code "
      "exceptional_behaviour "
      "signals (Exception e) true; also behavior");
  ASSERT_EQ(s.cases.size(), 4u);
  EXPECT_EQ(s.cases[0].behavior, Behavior::kBehavior);
  EXPECT_EQ(s.cases[0].visibility, Visibility::kPrivate);
  EXPECT_EQ(s.cases[1].behavior, Behavior::kNormal);
  EXPECT_EQ(s.cases[1].visibility, Visibility::kPackage);
  EXPECT_TRUE(s.cases[2].code);
  EXPECT_EQ(s.cases[2].visibility, Visibility::kProtected);
  EXPECT_TRUE(s.cases[3].clauses.empty());
}

TEST(ParserTest, NestedSpecCases) {
  MethodSpec s = ParseSpec(
      "behavior requires a != null; {| requires a.length > 0; ensures \\result >= 0; also requires "
      "a.length == 0; "
      "signals (IllegalArgumentException e) true; |}");
  ASSERT_EQ(s.cases.size(), 1u);
  ASSERT_EQ(s.cases[0].nested.size(), 2u);
  EXPECT_EQ(s.cases[0].clauses.size(), 1u);
  EXPECT_EQ(s.cases[0].nested[1].clauses[1].kind, ClauseKind::kSignals);
}

TEST(ParserTest, NestedCasesWithTheirOwnHeaders) {
  // The positions real files use: a behavior keyword (with a visibility)
  // at the head of a nested case, two levels of nesting, and a nested group
  // as a whole case after `also`.
  MethodSpec s = ParseSpec(
      "/*@ public behavior\n"
      "  @   requires x != 0;\n"
      "  @   {|\n"
      "  @     public normal_behavior\n"
      "  @       requires x > 0;\n"
      "  @       {| requires x > 10; ensures \\result == 1;\n"
      "  @       also requires x <= 10; ensures \\result == 2; |}\n"
      "  @   also\n"
      "  @     private exceptional_behavior\n"
      "  @       requires x < 0;\n"
      "  @       signals_only IllegalArgumentException;\n"
      "  @   |}\n"
      "  @ also\n"
      "  @ {| requires x == 0; ensures \\result == 0; |}\n"
      "  @*/");
  ASSERT_EQ(s.cases.size(), 2u);
  const SpecCase& outer = s.cases[0];
  EXPECT_EQ(outer.behavior, Behavior::kBehavior);
  ASSERT_EQ(outer.nested.size(), 2u);
  EXPECT_EQ(outer.nested[0].behavior, Behavior::kNormal);
  EXPECT_EQ(outer.nested[0].visibility, Visibility::kPublic);
  EXPECT_EQ(outer.nested[0].clauses.size(), 1u);
  EXPECT_EQ(outer.nested[0].nested.size(), 2u);
  EXPECT_EQ(outer.nested[1].behavior, Behavior::kExceptional);
  EXPECT_EQ(outer.nested[1].visibility, Visibility::kPrivate);
  EXPECT_EQ(s.cases[1].behavior, Behavior::kLightweight);
  EXPECT_EQ(s.cases[1].nested.size(), 1u);
  // Printed with the nested headers, and read back the same.
  std::string printed = PrintMethodSpec(s);
  EXPECT_THAT(printed, HasSubstr("  {|\n    public normal_behavior\n      requires x > 0;\n"
                                 "      {|\n        requires x > 10;\n"));
  auto again = ParseSpecText(printed, "again");
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << printed;
  EXPECT_TRUE(SameMethodSpec(s, again->spec)) << printed;
}

TEST(ParserTest, NestedCasesThatContradictTheirHeader) {
  EXPECT_EQ(SpecError("normal_behavior requires x > 0; {| exceptional_behavior requires x < 0; |}"),
            "Account.jml:1:36: an exceptional_behavior case cannot be nested in a normal_behavior "
            "case");
  EXPECT_EQ(SpecError("exceptional_behavior {| requires x < 0; also normal_behavior requires x > "
                      "0; |}"),
            "Account.jml:1:46: a normal_behavior case cannot be nested in an "
            "exceptional_behavior case");
  EXPECT_EQ(SpecError("behavior {| normal_example requires x > 0; |}"),
            "Account.jml:1:13: 'normal_example' belongs after for_example");
  // A visibility without a behavior keyword is not a case header.
  EXPECT_EQ(SpecError("behavior {| public requires x > 0; |}"),
            "Account.jml:1:20: expected normal_behavior, exceptional_behavior or behavior after "
            "the visibility of a spec case, found 'requires'");
}

TEST(ParserTest, SpecVariables) {
  MethodSpec s =
      ParseSpec("forall int k; old int n = a.length; requires k >= 0; ensures \\result == n;");
  ASSERT_EQ(s.cases[0].vars.size(), 2u);
  EXPECT_FALSE(s.cases[0].vars[0].is_old);
  EXPECT_TRUE(s.cases[0].vars[1].is_old);
  EXPECT_EQ(PrintExpr(*s.cases[0].vars[1].init), "a.length");
}

TEST(ParserTest, ParsedButNotCheckedClauses) {
  MethodSpec s = ParseSpec(
      "requires true; diverges false; when x > 0; accessible this.f; captures o; callable m, "
      "n(int, String); "
      "working_space 100 if x > 0; duration 10; measured_by n; callable \\nothing;");
  const auto& cl = s.cases[0].clauses;
  ASSERT_EQ(cl.size(), 10u);
  EXPECT_EQ(cl[1].kind, ClauseKind::kDiverges);
  EXPECT_EQ(cl[2].kind, ClauseKind::kWhen);
  EXPECT_EQ(cl[3].kind, ClauseKind::kAccessible);
  EXPECT_EQ(cl[4].kind, ClauseKind::kCaptures);
  EXPECT_EQ(cl[5].kind, ClauseKind::kCallable);
  EXPECT_EQ(PrintClause(cl[5]), "callable m, n(int, String);");
  EXPECT_EQ(PrintClause(cl[6]), "working_space 100 if x > 0;");
  EXPECT_EQ(cl[8].kind, ClauseKind::kMeasuredBy);
  EXPECT_EQ(cl[9].keyword, "nothing");
}

TEST(ParserTest, ExtendingImpliesThatAndExamples) {
  MethodSpec s = ParseSpec(
      "also requires x > 0; ensures \\result > 0; implies_that requires x > 1; for_example "
      "normal_example requires "
      "x == 2; ensures \\result == 4;");
  EXPECT_TRUE(s.extending);
  EXPECT_EQ(s.cases.size(), 1u);
  EXPECT_EQ(s.implies_that.size(), 1u);
  ASSERT_EQ(s.examples.size(), 1u);
  EXPECT_EQ(s.examples[0].behavior, Behavior::kNormalExample);
}

TEST(ParserTest, NotSpecifiedAndSame) {
  MethodSpec s =
      ParseSpec("requires \\not_specified; ensures \\not_specified; assignable \\not_specified;");
  EXPECT_EQ(s.cases[0].clauses[0].pred->kind, ExprKind::kJmlKeyword);
  EXPECT_EQ(s.cases[0].clauses[2].store_refs[0].kind, StoreRef::Kind::kNotSpecified);
}

TEST(ParserTest, SpecTextWithTrailingDeclaration) {
  auto s = ParseSpecText(
      "//@ requires x >= 0;\n//@ ensures \\result >= 0;\npublic static int isqrt(int x) { return "
      "0; }",
      "c.txt");
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_NE(s->method, nullptr);
  EXPECT_EQ(s->method->name, "isqrt");
  EXPECT_EQ(s->method->params[0].name, "x");
  EXPECT_TRUE(s->method->mods.Has(kModStatic));
}

TEST(ParserTest, SpecTextWithPureModifier) {
  auto s = ParseSpecText("/*@ pure @*/ ensures \\result == x;", "c.txt");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->spec.cases[0].clauses.size(), 1u);
}

TEST(ParserTest, SpecErrorPositionsAndMessages) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"requires x > 0 ensures y;",
       "Account.jml:1:16: expected ';' at the end of the requires clause, found 'ensures'"},
      {"requires x > 0; normal_behavior ensures y;",
       "Account.jml:1:17: expected 'also' between specification cases, found 'normal_behavior'"},
      {"public requires x;",
       "Account.jml:1:8: expected normal_behavior, exceptional_behavior or behavior after the "
       "visibility of a spec "
       "case, found 'requires'"},
      {"ensures ;", "Account.jml:1:9: expected a predicate after 'ensures', found ';'"},
      {"signals IllegalArgumentException true;",
       "Account.jml:1:9: expected '(' after 'signals' (signals (Exception e) predicate;), found "
       "'IllegalArgumentException'"},
      {"assignable a[1..];", "Account.jml:1:17: expected an expression, found ']'"},
      {"assignable \\nothing, x;",
       "Account.jml:1:12: \\nothing, \\everything and \\not_specified must stand alone in "
       "assignable clause"},
      {"assignable f();",
       "Account.jml:1:13: expected ';' at the end of the assignable clause, found '('"},
      {"requires a; also", "Account.jml:1:17: expected a specification clause, found end of input"},
      {"", "Account.jml:1:1: empty specification: expected requires, ensures, ..."},
      {"x > 0",
       "Account.jml:1:1: expected a specification clause such as requires or ensures, found 'x'"},
      {"requires x > 0; int f(int x",
       "Account.jml:1:28: expected ',' or ')' in the parameter list, found end of "
       "input"},
      {"invariant x > 0;",
       "Account.jml:1:1: a 'invariant' clause belongs to a class; put it in a .java or .jml file"},
      {"behavior {| requires a; also |}",
       "Account.jml:1:30: expected a specification clause inside '{|', found '|}'"},
      {"ensures \\result > 0; example ensures true;",
       "Account.jml:1:22: 'example' belongs after for_example"},
      {"model_program { }", "Account.jml:1:1: unsupported: model programs (model_program)"},
  };
  for (const auto& c : cases) EXPECT_EQ(SpecError(c.text), c.message) << c.text;
}

TEST(ParserTest, AMisspeltClauseKeywordSuggestsTheKeyword) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"//@ requires a != null;\n//@ ensure \\result >= 0;\n",
       "Account.jml:2:5: unknown clause keyword 'ensure' (did you mean 'ensures'?)"},
      {"//@ requries a != null;\n",
       "Account.jml:1:5: unknown clause keyword 'requries' (did you mean 'requires'?)"},
      {"//@ public normal_behavior\n//@   asignable \\nothing;\n",
       "Account.jml:2:7: unknown clause keyword 'asignable' (did you mean 'assignable'?)"},
      {"//@ ensures \\result > 0;\n//@ ensurs \\result < 9;\n",
       "Account.jml:2:5: unknown clause keyword 'ensurs' (did you mean 'ensures'?)"},
      // A keyword followed by a class name and ';' reads like a declaration;
      // a lower-case word one edit from a keyword before a type is the
      // keyword misspelt.
      {"//@ public exceptional_behavior\n//@   requires x < 0;\n"
       "//@   signal_only IllegalArgumentException;\n",
       "Account.jml:3:7: unknown clause keyword 'signal_only' (did you mean 'signals_only'?)"},
      {"//@ signal_only java.lang.IllegalArgumentException;\n",
       "Account.jml:1:5: unknown clause keyword 'signal_only' (did you mean 'signals_only'?)"},
  };
  for (const auto& c : cases) EXPECT_EQ(SpecError(c.text), c.message) << c.text;
  // Correct keywords and words far from any keyword are not flagged.
  EXPECT_TRUE(ParseSpecText("//@ requires x > 0;\n//@ ensures \\result == x;\n", "c.txt").ok());
}

TEST(ParserTest, UnsupportedSyntaxIsUnimplemented) {
  auto s = ParseSpecText("model_program { }", "x");
  EXPECT_EQ(s.status().code(), absl::StatusCode::kUnimplemented);
  auto e = ParseExpressionText("new T { x | x > 0 }");
  EXPECT_EQ(e.status().code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace tracespec::jml
