// Tests for validator/jml/printer.h: canonical forms, and the round-trip
// property parse(print(ast)) == ast over a corpus of specifications and
// over thousands of randomly generated (seeded) expressions and specs.
#include "validator/jml/printer.h"

#include <random>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "validator/jml/parser.h"

namespace tracespec::jml {
namespace {

std::string Canonical(const std::string& text) {
  auto e = ParseExpressionText(text);
  if (!e.ok()) return std::string(e.status().message());
  return PrintExpr(**e);
}

TEST(PrinterTest, CanonicalExpressions) {
  EXPECT_EQ(Canonical("a+b*c"), "a + b * c");
  EXPECT_EQ(Canonical("(a+b)*c"), "(a + b) * c");
  EXPECT_EQ(Canonical("((a))"), "a");
  EXPECT_EQ(Canonical("a-(b-c)"), "a - (b - c)");
  EXPECT_EQ(Canonical("(a==>b)==>c"), "(a ==> b) ==> c");
  EXPECT_EQ(Canonical("a==>(b<==c)"), "a ==> (b <== c)");
  EXPECT_EQ(Canonical("-(-x)"), "- -x");
  EXPECT_EQ(Canonical("-(-2147483648)"), "- -2147483648");
  EXPECT_EQ(Canonical("(Integer)(-x)"), "(Integer) (-x)");
  EXPECT_EQ(Canonical("(int)(-x)"), "(int) -x");
  EXPECT_EQ(Canonical("(a < b) < c"), "(a < b) < c");
  EXPECT_EQ(Canonical("(a ? b : c) ? d : e"), "(a ? b : c) ? d : e");
  EXPECT_EQ(Canonical("0x1F + 0_7 + 1_000L"), "31 + 7 + 1000L");
  EXPECT_EQ(Canonical("1e10 + 0.1f + 5. + 2e-3f"), "1e+10 + 0.1f + 5.0 + 0.002f");
  EXPECT_EQ(Canonical("'\\u0041' + '\\'' + '\\u00e9' + '\"'"), "'A' + '\\'' + '\\u00e9' + '\"'");
  EXPECT_EQ(Canonical("\"tab\\t\\u0000\\\"\\\\\""), "\"tab\\t\\u0000\\\"\\\\\"");
  EXPECT_EQ(Canonical("(\\forall int i; ; a[i] > 0)"), "(\\forall int i; a[i] > 0)");
  EXPECT_EQ(Canonical("\\old( x , Pre )"), "\\old(x, Pre)");
  EXPECT_EQ(Canonical("(\\let int m = (a + b); (m * m))"), "(\\let int m = a + b; m * m)");
  EXPECT_EQ(Canonical("(\\let int x = 1, y = x; x + y) * 2"), "(\\let int x = 1, int y = x; x + y) * 2");
}

TEST(PrinterTest, NumberReceiversAreParenthesized) {
  auto e = ParseExpressionText("(1).f");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(PrintExpr(**e), "(1).f");
}

TEST(PrinterTest, CanonicalSpecification) {
  auto s = ParseSpecText(
      "pre x > 0; post \\result > 0; modifies a[*]; exsures (Exception) false; also public "
      "normal_behaviour "
      "ensures true; also behavior requires a; {| requires b; also requires c; |}",
      "t");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(PrintMethodSpec(s->spec),
            "requires x > 0;\n"
            "ensures \\result > 0;\n"
            "assignable a[*];\n"
            "signals (Exception) false;\n"
            "also\n"
            "public normal_behavior\n"
            "  ensures true;\n"
            "also\n"
            "behavior\n"
            "  requires a;\n"
            "  {|\n"
            "    requires b;\n"
            "  also\n"
            "    requires c;\n"
            "  |}\n");
  EXPECT_EQ(PrintAsAnnotationComments(s->spec, "  ").substr(0, 24), "  //@ requires x > 0;\n  ");
}

// ---- Round trip over a corpus ----

const char* const kCorpus[] = {
    "requires (\\let int x = a[0], y = x + 1; y > x);\nensures (\\let long m = \\old(a.length); "
    "\\result == m * m && (\\let int k = 2, long j = k; k < m ==> j > 0));",
    "ensures \\let int m = a + b; \\result == m;",
    "requires x > 0;\nensures \\result == x;",
    "ensures \\result != null && \\result.length >= 1 ==> \\result[0] == celsius + 273.15;",
    "ensures \\result == (\\num_of int i; 0 <= i && i < a.length; a[i] == 0);",
    "ensures \\result == (\\sum int i; 0 <= i && i + 1 < a.length; a[i] * a[i + 1]);",
    "ensures (\\forall int i, j; 0 <= i && i < j && j < a.length; a[i] <= a[j]);",
    "public normal_behavior requires amount > 0; assignable balance; ensures balance == "
    "\\old(balance) + amount; "
    "also public exceptional_behavior requires amount <= 0; assignable \\nothing; signals_only "
    "IllegalArgumentException; signals (IllegalArgumentException e) amount <= 0;",
    "behavior requires a != null; {| requires a.length > 0; ensures \\result >= 0; also requires "
    "a.length == 0; "
    "signals (IllegalArgumentException e) true; |}",
    "forall int k; old int n = a.length; requires k >= 0; ensures \\result == n;",
    "requires \\not_specified; diverges false; when x > 0; accessible this.f; captures o; callable "
    "m, n(int, "
    "String); working_space 100 if x > 0; duration 10; measured_by n; callable \\nothing;",
    "also requires x > 0; implies_that requires x > 1; for_example normal_example requires x == 2; "
    "ensures "
    "\\result == 4;",
    "ensures \\typeof(o) <: \\type(java.util.List<String>) && \\elemtype(\\typeof(a)) == "
    "\\type(int[]);",
    "ensures \\fresh(\\result, o) && \\nonnullelements(a) && \\not_modified(x, a[*], o.*, b[1 .. "
    "2]);",
    "ensures (\\lblpos ok \\result > 0) || (* informal *) || \\lockset == \\max(\\lockset);",
    "ensures x == -2147483648 && y == -9223372036854775808L && z == - -1 && (Integer) (-w) != "
    "null;",
    "ensures (int) -x + (long) ~y + (\\bigint) z * (\\real) w > 0 ? (String) s : t;",
    "ensures 0x1.8p1 + 1e-7 + 3.4028235e38f + 4.9e-324 + 1.0E10 > 0;",
    "ensures '\\n' != '\\u1234' && \"a\\\"b\\\\c\\u0001\" != null && 'x' == 120;",
    "ensures new int[3][] != null && new int[] {1, 2} != null && new java.util.ArrayList<String>() "
    "!= null;",
    "ensures String.class != int[].class && Outer.this.x == super.y && this.z == C.D.e;",
    "requires_redundantly x > 0; ensures_redundantly true; assignable_redundantly \\everything;",
    "ensures a ? b ? c : d : e ? f : g;",
    "ensures ((a ==> b) ==> c) && ((a <== b) <== c) && (a <==> b <=!=> c) && (a ==> (b <== c));",
    "ensures \\old(x, Pre) + \\pre(y) == \\result;",
    "ensures (\\forall java.util.Map.Entry<K, V> e; e != null);",
    "ensures (\\forall int[] row; row.length > 0) && (\\exists Object o; o instanceof int[][]);",
};

TEST(PrinterTest, CorpusRoundTrips) {
  for (const char* text : kCorpus) {
    auto first = ParseSpecText(text, "t");
    ASSERT_TRUE(first.ok()) << text << ": " << first.status();
    std::string printed = PrintMethodSpec(first->spec);
    auto second = ParseSpecText(printed, "t");
    ASSERT_TRUE(second.ok()) << printed << ": " << second.status();
    EXPECT_TRUE(SameMethodSpec(first->spec, second->spec)) << text << "\nprinted:\n" << printed;
    EXPECT_EQ(PrintMethodSpec(second->spec), printed);
    // As annotation comments too.
    auto third = ParseSpecText(PrintAsAnnotationComments(first->spec), "t");
    ASSERT_TRUE(third.ok()) << third.status();
    EXPECT_TRUE(SameMethodSpec(first->spec, third->spec)) << text;
  }
}

// ---- Round trip over random ASTs ----

class RandomAst {
 public:
  explicit RandomAst(uint32_t seed) : rng_(seed) {}

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool Coin() { return Pick(2) == 0; }

  std::string Name() {
    static const char* kNames[] = {
        "a",       "b",      "x",      "y",  "i",  "j",   "balance", "result", "old", "requires",
        "ensures", "forall", "length", "_v", "$d", "pre", "post",    "also",   "in"};
    return kNames[Pick(sizeof(kNames) / sizeof(kNames[0]))];
  }

  TypeRef Type(bool allow_generic = true) {
    static const char* kTypes[] = {"int",      "long",   "boolean", "char",
                                   "byte",     "short",  "float",   "double",
                                   "\\bigint", "\\real", "String",  "java.lang.Object",
                                   "Account"};
    TypeRef t;
    t.name = kTypes[Pick(sizeof(kTypes) / sizeof(kTypes[0]))];
    if (allow_generic && t.name == "String" && Coin()) {
      t.name = "java.util.List";
      t.has_type_args = true;
      TypeRef arg;
      arg.name = Coin() ? "Integer" : "?";
      t.type_args.push_back(arg);
    }
    if (Pick(4) == 0) t.dims = 1 + Pick(2);
    return t;
  }

  // A Java type (no JML \\bigint/\\real), as `new` and `.class` need.
  TypeRef PlainType() {
    TypeRef t;
    do {
      t = Type(false);
    } while (t.name[0] == '\\');
    return t;
  }

  ExprPtr Leaf() {
    auto e = std::make_unique<Expr>();
    switch (Pick(11)) {
      case 0:
        e->kind = ExprKind::kLiteral;
        e->literal.kind = LiteralKind::kInt;
        e->literal.bits = Coin() ? static_cast<uint64_t>(Pick(100000))
                                 : static_cast<uint64_t>(int64_t{INT32_MIN});
        break;
      case 1:
        e->kind = ExprKind::kLiteral;
        e->literal.kind = LiteralKind::kLong;
        e->literal.bits =
            Coin() ? static_cast<uint64_t>(rng_() & 0x7fffffffffffffffull) : (1ull << 63);
        break;
      case 2: {
        e->kind = ExprKind::kLiteral;
        e->literal.kind = Coin() ? LiteralKind::kDouble : LiteralKind::kFloat;
        double v = std::ldexp(std::uniform_real_distribution<double>(0, 1)(rng_), Pick(200) - 100);
        if (Pick(5) == 0) v = 0;
        e->literal.double_value = v;
        e->literal.float_value = static_cast<float>(v);
        if (e->literal.kind == LiteralKind::kFloat)
          e->literal.double_value = e->literal.float_value;
        if (std::isinf(e->literal.float_value)) e->literal.kind = LiteralKind::kDouble;
        break;
      }
      case 3:
        e->kind = ExprKind::kLiteral;
        e->literal.kind = LiteralKind::kChar;
        e->literal.bits = Pick(3) == 0 ? static_cast<uint64_t>(Pick(0x10000))
                                       : static_cast<uint64_t>(32 + Pick(95));
        break;
      case 4: {
        e->kind = ExprKind::kLiteral;
        e->literal.kind = LiteralKind::kString;
        int n = Pick(6);
        for (int k = 0; k < n; ++k) {
          e->literal.string_value.push_back(
              static_cast<char16_t>(Pick(3) == 0 ? Pick(0x10000) : 32 + Pick(95)));
        }
        break;
      }
      case 5:
        e->kind = ExprKind::kLiteral;
        e->literal.kind = Coin() ? LiteralKind::kBoolean : LiteralKind::kNull;
        e->literal.bits = e->literal.kind == LiteralKind::kBoolean ? Pick(2) : 0;
        break;
      case 6:
        e->kind = ExprKind::kThis;
        break;
      case 7:
        e->kind = ExprKind::kResult;
        break;
      case 8:
        e->kind = ExprKind::kJmlKeyword;
        e->name = Coin() ? "lockset" : "nothing";
        break;
      case 9:
        e->kind = ExprKind::kInformal;
        e->name = Coin() ? "some text" : "x";
        break;
      default:
        e->kind = ExprKind::kName;
        e->name = Name();
        break;
    }
    return e;
  }

  ExprPtr Gen(int depth) {
    if (depth <= 0 || Pick(5) == 0) return Leaf();
    auto e = std::make_unique<Expr>();
    auto sub = [&] { return Gen(depth - 1); };
    switch (Pick(17)) {
      case 0:
        e->kind = ExprKind::kUnary;
        e->unary_op = static_cast<UnaryOp>(Pick(4));
        e->operands.push_back(sub());
        break;
      case 1:
      case 2:
      case 3:
        e->kind = ExprKind::kBinary;
        e->binary_op = static_cast<BinaryOp>(Pick(static_cast<int>(BinaryOp::kRem) + 1));
        e->operands.push_back(sub());
        e->operands.push_back(sub());
        break;
      case 4:
        e->kind = ExprKind::kConditional;
        for (int k = 0; k < 3; ++k) e->operands.push_back(sub());
        break;
      case 5:
        e->kind = ExprKind::kCast;
        e->type_ref = Type(false);
        e->operands.push_back(sub());
        break;
      case 6:
        e->kind = ExprKind::kInstanceOf;
        e->type_ref = Type();
        e->operands.push_back(sub());
        break;
      case 7:
        e->kind = ExprKind::kFieldAccess;
        e->name = Name();
        e->operands.push_back(sub());
        break;
      case 8:
        e->kind = ExprKind::kArrayAccess;
        e->operands.push_back(sub());
        e->operands.push_back(sub());
        break;
      case 9: {
        e->kind = ExprKind::kMethodCall;
        e->name = Name();
        e->flag = Coin();
        if (e->flag) e->operands.push_back(sub());
        int n = Pick(3);
        for (int k = 0; k < n; ++k) e->operands.push_back(sub());
        break;
      }
      case 10: {
        e->kind = ExprKind::kQuantifier;
        e->quantifier = static_cast<QuantifierKind>(Pick(7));
        e->type_ref = Type();
        int n = 1 + Pick(2);
        for (int k = 0; k < n; ++k) e->bound_vars.push_back(BoundVar{Name(), {}});
        e->flag = Coin();
        if (e->flag) e->operands.push_back(sub());
        e->operands.push_back(sub());
        break;
      }
      case 11:
        e->kind = ExprKind::kOld;
        e->flag = Pick(3) == 0;
        if (!e->flag && Coin()) e->name = "Pre";
        e->operands.push_back(sub());
        break;
      case 12:
        e->kind = ExprKind::kJmlCall;
        switch (Pick(4)) {
          case 0:
            e->name = "type";
            e->type_ref = Type();
            break;
          case 1: {
            e->name = "not_modified";
            StoreRef r;
            r.kind = Coin() ? StoreRef::Kind::kLocation : StoreRef::Kind::kAllElements;
            auto n = std::make_unique<Expr>();
            n->kind = ExprKind::kName;
            n->name = Name();
            r.expr = std::move(n);
            e->store_refs.push_back(std::move(r));
            break;
          }
          default:
            e->name = Coin() ? "fresh" : "typeof";
            e->operands.push_back(sub());
            break;
        }
        break;
      case 13:
        e->kind = ExprKind::kLabeled;
        e->flag = Coin();
        e->name = Name();
        e->operands.push_back(sub());
        break;
      case 14: {
        e->kind = ExprKind::kNewArray;
        e->type_ref = PlainType();
        e->type_ref.dims = 1 + Pick(2);
        e->flag = Coin();
        if (e->flag) {
          int n = Pick(3);
          for (int k = 0; k < n; ++k) e->operands.push_back(sub());
        } else {
          e->operands.push_back(sub());
        }
        break;
      }
      case 15:
        e->kind = ExprKind::kClassLiteral;
        e->type_ref = PlainType();
        break;
      default:
        return Leaf();
    }
    return e;
  }

  MethodSpec Spec() {
    MethodSpec s;
    s.extending = Pick(4) == 0;
    int cases = 1 + Pick(3);
    for (int c = 0; c < cases; ++c) {
      SpecCase sc;
      sc.behavior = static_cast<Behavior>(Pick(4));
      if (sc.behavior != Behavior::kLightweight) sc.visibility = static_cast<Visibility>(Pick(4));
      int clauses = (sc.behavior == Behavior::kLightweight ? 1 : 0) + Pick(4);
      for (int k = 0; k < clauses; ++k) {
        Clause cl;
        switch (Pick(5)) {
          case 0:
            cl.kind = ClauseKind::kRequires;
            cl.pred = Gen(3);
            break;
          case 1:
            cl.kind = ClauseKind::kEnsures;
            cl.redundant = Pick(4) == 0;
            cl.pred = Gen(3);
            break;
          case 2:
            cl.kind = ClauseKind::kSignals;
            cl.exception_type.name = "RuntimeException";
            if (Coin()) cl.exception_var = "e";
            if (Coin()) cl.pred = Gen(2);
            break;
          case 3: {
            cl.kind = ClauseKind::kAssignable;
            StoreRef r;
            r.kind = static_cast<StoreRef::Kind>(Pick(7));
            if (r.kind >= StoreRef::Kind::kLocation) {
              auto n = std::make_unique<Expr>();
              n->kind = ExprKind::kName;
              n->name = Name();
              r.expr = std::move(n);
            }
            if (r.kind == StoreRef::Kind::kArrayRange) {
              r.lo = Gen(1);
              r.hi = Gen(1);
            }
            cl.store_refs.push_back(std::move(r));
            break;
          }
          default:
            cl.kind = ClauseKind::kSignalsOnly;
            cl.nothing = Coin();
            if (!cl.nothing) {
              TypeRef t;
              t.name = "IllegalStateException";
              cl.types.push_back(t);
            }
            break;
        }
        sc.clauses.push_back(std::move(cl));
      }
      s.cases.push_back(std::move(sc));
    }
    return s;
  }

 private:
  std::mt19937 rng_;
};

TEST(PrinterTest, RandomExpressionsRoundTrip) {
  RandomAst gen(20240611);
  for (int n = 0; n < 4000; ++n) {
    ExprPtr e = gen.Gen(5);
    std::string printed = PrintExpr(*e);
    auto parsed = ParseExpressionText(printed);
    ASSERT_TRUE(parsed.ok()) << printed << "\n" << parsed.status();
    ASSERT_TRUE(SameExpr(*e, **parsed)) << printed << "\nreprinted: " << PrintExpr(**parsed);
  }
}

TEST(PrinterTest, RandomSpecificationsRoundTrip) {
  RandomAst gen(7);
  for (int n = 0; n < 1500; ++n) {
    MethodSpec s = gen.Spec();
    std::string printed = PrintMethodSpec(s);
    auto parsed = ParseSpecText(printed, "t");
    ASSERT_TRUE(parsed.ok()) << printed << "\n" << parsed.status();
    ASSERT_TRUE(SameMethodSpec(s, parsed->spec)) << printed << "\nreprinted:\n"
                                                 << PrintMethodSpec(parsed->spec);
  }
}

TEST(PrinterTest, ClassClausesAndBodyAnnotations) {
  auto unit = ParseJavaSource(
      "class C {\n"
      "  //@ public static invariant_redundantly x > 0;\n"
      "  //@ constraint x >= \\old(x) for \\everything;\n"
      "  //@ constraint true for f, g(int);\n"
      "  //@ represents m <- x + 1;\n"
      "  //@ readable x if true;\n"
      "  //@ monitors_for x = this, o;\n"
      "  //@ maps a[*] \\into g1, g2;\n"
      "  void f() {\n"
      "    //@ ghost int k = 0;\n"
      "    //@ maintaining k >= 0;\n"
      "    //@ decreasing 10 - k;\n"
      "    //@ loop_assigns k, a[*];\n"
      "    //@ assert_redundantly k == 0 : \"why\";\n"
      "    //@ unreachable;\n"
      "    //@ reachable;\n"
      "    //@ hence_by true;\n"
      "    //@ debug k;\n"
      "  }\n"
      "}\n",
      "C.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const TypeDecl& c = *(*unit)->types[0];
  ASSERT_TRUE(c.errors.empty()) << c.errors[0];
  std::vector<std::string> printed;
  for (const auto& cl : c.clauses) printed.push_back(PrintClassClause(cl));
  EXPECT_EQ(printed, (std::vector<std::string>{
                         "public static invariant_redundantly x > 0;",
                         "constraint x >= \\old(x) for \\everything;",
                         "constraint true for f, g(int);",
                         "represents m <- x + 1;",
                         "readable x if true;",
                         "monitors_for x = this, o;",
                         "maps a[*] \\into g1, g2;",
                     }));
  std::vector<std::string> body;
  ASSERT_TRUE(c.methods[0].errors.empty()) << c.methods[0].errors[0];
  for (const auto& a : c.methods[0].body_annotations) body.push_back(PrintBodyAnnotation(a));
  EXPECT_EQ(body, (std::vector<std::string>{
                      "ghost int k = 0;",
                      "loop_invariant k >= 0;",
                      "decreases 10 - k;",
                      "loop_modifies k, a[*];",
                      "assert_redundantly k == 0 : \"why\";",
                      "unreachable;",
                      "reachable;",
                      "hence_by true;",
                      "debug k;",
                  }));
}

}  // namespace
}  // namespace tracespec::jml
