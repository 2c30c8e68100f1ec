// Tests for validator/jml/type_checker.h: valid specifications are accepted
// and annotated with types and symbols; ill-typed ones are rejected with
// exact messages; unsupported constructs are Unimplemented.
#include "validator/jml/type_checker.h"

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "validator/jml/parser.h"
#include "validator/jml/printer.h"

namespace tracespec::jml {
namespace {

using ::testing::HasSubstr;

constexpr char kSource[] = R"java(package bank;

import java.util.List;

public class Account {
  private int balance;
  private long checksum;
  private int[] history;
  private String owner;
  private Account next;
  private Integer boxed;
  public static final int LIMIT = 1000;
  //@ public ghost int deposits;
  //@ public model int total;
  //@ public model static int created;

  public Account(int initial) {}
  public void deposit(int amount) {}
  public /*@ pure @*/ int getBalance() { return balance; }
  public int withdraw(int amount) { return 0; }
  public static /*@ pure @*/ int clamp(int x, int lo, int hi) { return x; }
  public static /*@ pure @*/ long clamp(long x, long lo, long hi) { return x; }
  public /*@ pure @*/ boolean owns(Object o) { return false; }
  public double toKelvin(double celsius) { return 0; }
  public double[] convert(double celsius) { return null; }
  public int[] copy(int[] a) { return a; }
  public static int max(int[] a) { return 0; }
  public static int count(int[] a, int x) { return 0; }
  public int occurrences(int[] a, int x) { return 0; }
  public /*@ spec_bigint_math @*/ int add(int a, int b) { return a + b; }
  public static /*@ pure @*/ boolean isSorted(int[] a) { return true; }
  public String name(List<String> parts, char sep, byte b, short s, float f, boolean flag) { return null; }
  public static void transfer(Account from, Account to, int amount) {}
}
)java";

class TypeCheckerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto unit = ParseJavaSource(kSource, "Account.java");
    ASSERT_TRUE(unit.ok()) << unit.status();
    unit_ = *std::move(unit);
    env_ = std::make_unique<SourceTypeEnvironment>(std::vector<const CompilationUnit*>{unit_.get()},
                                                   &JdkTypeEnvironment());
    decl_ = unit_->FindType("bank.Account");
  }

  const MethodDecl& Method(const std::string& name) {
    for (const auto& m : decl_->methods) {
      if (m.name == name) return m;
    }
    ADD_FAILURE() << name;
    return decl_->methods[0];
  }

  // Type-checks `spec` (a specification text, file Account.jml) for method
  // `name`; returns "" or the error message.
  std::string Check(const std::string& name, const std::string& spec,
                    TypeCheckOptions options = {}) {
    auto text = ParseSpecText(spec, "Account.jml");
    if (!text.ok()) return absl::StrCat("syntax: ", text.status().message());
    spec_ = std::move(text->spec);
    auto ctx = MakeMethodContext(*env_, *decl_, Method(name), options);
    if (!ctx.ok()) return absl::StrCat("context: ", ctx.status().message());
    ctx_ = *ctx;
    auto result = TypeChecker(*env_, options).CheckMethodSpec(spec_, ctx_);
    if (!result.ok()) {
      code_ = result.status().code();
      return std::string(result.status().message());
    }
    result_ = *result;
    return "";
  }

  std::unique_ptr<CompilationUnit> unit_;
  std::unique_ptr<SourceTypeEnvironment> env_;
  const TypeDecl* decl_ = nullptr;
  MethodSpec spec_;
  MethodContext ctx_;
  TypeCheckResult result_;
  absl::StatusCode code_ = absl::StatusCode::kOk;
};

// A method of a one-class Java source, whose specifications Check() type
// checks: "" when well-typed, else the error; the checked spec and the
// result's notes are kept.
class OneMethod {
 public:
  OneMethod(const char* source, const std::string& file, const std::string& cls, size_t method)
      : file_(file) {
    auto unit = ParseJavaSource(source, file);
    EXPECT_TRUE(unit.ok()) << unit.status();
    if (!unit.ok()) return;
    unit_ = std::move(*unit);
    env_ = std::make_unique<SourceTypeEnvironment>(std::vector<const CompilationUnit*>{unit_.get()},
                                                   &JdkTypeEnvironment());
    const TypeDecl* decl = unit_->FindType(cls);
    EXPECT_NE(decl, nullptr);
    if (decl == nullptr) return;
    auto ctx = MakeMethodContext(*env_, *decl, decl->methods[method]);
    EXPECT_TRUE(ctx.ok()) << ctx.status();
    if (ctx.ok()) ctx_ = std::move(*ctx);
  }
  std::string Check(const std::string& text) {
    notes_.clear();
    std::string jml = file_.substr(0, file_.find('.')) + ".jml";
    auto spec = ParseSpecText(text, jml);
    if (!spec.ok()) return std::string(spec.status().message());
    spec_ = std::move(spec->spec);
    auto r = TypeChecker(*env_).CheckMethodSpec(spec_, ctx_);
    if (!r.ok()) return std::string(r.status().message());
    for (const auto& n : r->notes) notes_ += n.message;
    return "";
  }
  const MethodSpec& spec() const { return spec_; }
  const std::string& notes() const { return notes_; }

 private:
  std::string file_;
  std::unique_ptr<CompilationUnit> unit_;
  std::unique_ptr<SourceTypeEnvironment> env_;
  MethodContext ctx_;
  MethodSpec spec_;
  std::string notes_;
};

TEST(TypeCheckerOpenJmlTest, FunctionMethodsAndNestedQuantifiersAreAccepted) {
  const char* source = R"java(package q;
public class F {
  public static /*@ function @*/ int sq(int x) { return x * x; }
  public static int plain(int x) { return x; }
  public static int m(int[] a) { return 0; }
}
)java";
  OneMethod m(source, "F.java", "q.F", 2);
  auto check = [&](const std::string& text) { return m.Check(text); };
  // A `function` method may be called from a specification, like a pure one.
  EXPECT_EQ(check("requires a != null; ensures \\result == sq(a.length);"), "");
  EXPECT_THAT(check("ensures \\result == plain(1);"), HasSubstr("is not pure"));
  // The inner quantifier's variable is in scope in its body, the outer's too.
  EXPECT_EQ(check("ensures (\\forall int j; 0 <= j && j < a.length; \\forall int i; "
                  "0 <= i && i < j; a[i] <= a[j]) ==> \\result >= 0;"),
            "");
  EXPECT_THAT(check("ensures (\\forall int j; 0 <= j; \\forall int i; i < j; a[k] > 0);"),
              HasSubstr("unknown name 'k'"));
}

// A method of two int parameters.
constexpr char kTwoInts[] = R"java(package q;
public class L {
  public static long m(int a, int b) { return 0; }
}
)java";

TEST(TypeCheckerOpenJmlTest, LetVariablesAreTypedAndScoped) {
  OneMethod m(kTwoInts, "L.java", "q.L", 0);
  auto check = [&](const std::string& text) { return m.Check(text); };
  EXPECT_EQ(check("ensures (\\let long s = a + b; \\result == s * s);"), "");
  // A later binding sees the earlier ones; \old inside is allowed in a postcondition.
  EXPECT_EQ(check("ensures (\\let int x = \\old(a), y = x + b; \\result >= y || x > 0);"), "");
  // The value of a \let is its body's.
  EXPECT_EQ(check("ensures \\result == (\\let int k = a; k + 1L);"), "");
  EXPECT_THAT(check("ensures (\\let int s = 1L; s > 0);"),
              HasSubstr("L.jml:1:23: "));
  EXPECT_THAT(check("ensures (\\let int s = 1L; s > 0);"), HasSubstr("\\let variable 's'"));
  EXPECT_THAT(check("ensures (\\let int s = 1; s) > 0 && s > 0;"),
              HasSubstr("unknown name 's'"));
  EXPECT_THAT(check("ensures (\\let int x = x; true);"), HasSubstr("unknown name 'x'"));
  EXPECT_THAT(check("ensures (\\let int s = 1; s);"), HasSubstr("must be boolean"));
  EXPECT_THAT(check("requires (\\let int s = \\old(a); s > 0);"),
              HasSubstr("'\\old' cannot be used in a requires clause"));
}

TEST(TypeCheckerOpenJmlTest, RequiresSameIsThePreconditionOfTheOtherCases) {
  OneMethod m(kTwoInts, "L.java", "q.L", 0);
  // The printed first clause of case `index` after checking.
  auto pre = [&](size_t index) { return PrintClause(m.spec().cases[index].clauses[0]); };
  ASSERT_EQ(m.Check("requires a > 0; requires b > 0; ensures true; also requires a < -5; "
                    "also requires \\same; ensures \\result >= 0;"),
            "");
  EXPECT_EQ(pre(2), "requires a > 0 && b > 0 || a < -5;");
  EXPECT_THAT(m.notes(), HasSubstr("'requires \\same' read as the precondition of the method's "
                                   "other specification cases: a > 0 && b > 0 || a < -5"));
  // Alone, it is the default precondition.
  ASSERT_EQ(m.Check("requires \\same; ensures true;"), "");
  EXPECT_EQ(pre(0), "requires true;");
  // Cases nested under a header count once each, with the header's clauses.
  ASSERT_EQ(m.Check("requires a > 0; {| requires b > 0; also requires b < 0; |} also "
                    "requires \\same;"),
            "");
  EXPECT_EQ(pre(1), "requires a > 0 && b > 0 || a > 0 && b < 0;");
  // An inherited specification is not read: the note says so.
  ASSERT_EQ(m.Check("also requires a > 0; also requires \\same;"), "");
  EXPECT_THAT(m.notes(), HasSubstr("(an inherited specification is not read)"));
  // \same is a precondition only.
  EXPECT_THAT(m.Check("requires a > 0; also ensures \\same;"),
              HasSubstr("unsupported: '\\same' outside a requires clause"));
}

TEST_F(TypeCheckerTest, AcceptsValidSpecifications) {
  struct Case {
    const char* method;
    const char* spec;
  };
  const Case cases[] = {
      {"deposit",
       "public normal_behavior requires amount > 0; assignable balance, checksum; "
       "ensures balance == \\old(balance) + amount; also public exceptional_behavior requires "
       "amount <= 0; "
       "assignable \\nothing; signals_only IllegalArgumentException; signals "
       "(IllegalArgumentException e) "
       "amount <= 0 && e.getMessage() != null;"},
      {"convert",
       "ensures \\result != null && \\result.length >= 1 ==> \\result[0] == celsius + 273.15;"},
      {"toKelvin", "requires celsius >= -273.15; ensures \\result == celsius + 273.15;"},
      {"count",
       "requires a != null; ensures \\result == (\\num_of int i; 0 <= i && i < a.length; a[i] == "
       "x);"},
      {"max",
       "requires a != null && a.length > 0; ensures (\\forall int i; 0 <= i && i < a.length; a[i] "
       "<= \\result) && "
       "(\\exists int i; 0 <= i && i < a.length; a[i] == \\result); "
       "ensures \\result == (\\max int i; 0 <= i && i < a.length; a[i]);"},
      {"count",
       "ensures (\\sum int i; 0 <= i && i + 1 < a.length; a[i] * a[i + 1]) >= Integer.MIN_VALUE;"},
      {"isSorted",
       "ensures \\result <==> (\\forall int i, j; 0 <= i && i < j && j < a.length; a[i] <= a[j]);"},
      {"copy",
       "requires a != null; assignable \\nothing; ensures \\fresh(\\result) && \\result.length == "
       "a.length && "
       "(\\forall int i; 0 <= i < a.length; \\result[i] == a[i]);"},
      {"copy", "assignable a[*]; ensures \\not_modified(a[0]) ==> \\result == a;"},
      {"copy", "assignable a[0], a[1 .. a.length - 1], this.*, history[*];"},
      {"getBalance",
       "ensures \\result == balance && \\result == this.balance && \\result == getBalance();"},
      {"getBalance",
       "ensures \\result == total + deposits + created + Account.LIMIT + bank.Account.LIMIT;"},
      {"getBalance", "ensures \\result == clamp(balance, 0, LIMIT) && clamp(1L, 2, 3) == 1L;"},
      {"getBalance", "ensures \\result == Math.max(balance, 0) && Math.abs(-1.5) > 1;"},
      {"getBalance", "ensures owner != null ==> owner.length() > 0 && owner.charAt(0) != 'x';"},
      {"getBalance", "ensures next != null ==> next.balance == \\old(next.balance) && owns(next);"},
      {"getBalance", "ensures boxed != null ==> boxed + 1 > balance && boxed == balance;"},
      {"getBalance",
       "ensures (double) balance / 2 >= 0.0 || (balance & 1) == 1 || balance >>> 1 >= 0L;"},
      {"getBalance",
       "ensures \\typeof(next) <: \\type(Account) && \\elemtype(\\typeof(history)) == "
       "\\type(int);"},
      {"getBalance",
       "ensures next instanceof Object && (Object) next != null && \\nonnullelements(history);"},
      {"getBalance",
       "ensures (\\forall \\bigint k; 0 <= k && k < 10; k * k >= 0) && (\\bigint) balance + 1 > "
       "0;"},
      {"getBalance",
       "ensures \\result == (balance > 0 ? balance : -balance) || \\result == (int) checksum;"},
      {"getBalance",
       "ensures (\\lblpos positive \\result > 0) || (\\lblneg nonpositive \\result <= 0);"},
      {"getBalance",
       "requires \\not_specified; ensures \\not_specified; assignable \\not_specified;"},
      {"withdraw",
       "old int before = balance; requires amount <= before; ensures balance == before - amount;"},
      {"withdraw", "forall int k; requires k > 0; ensures \\result >= 0;"},
      {"withdraw", "ensures \\result == \\old(balance, Pre) + \\pre(amount);"},
      {"withdraw",
       "behavior requires amount > 0; {| requires amount < 10; ensures \\result == 0; also "
       "requires amount "
       ">= 10; signals (RuntimeException e) true; |}"},
      {"name",
       "ensures \\result != null ==> sep != 'a' && b + s + f > 0 && flag == !(!flag) && parts != "
       "null;"},
      {"name", "ensures \\result == \"x\" + sep + b || \\result.equals(\"\" + flag);"},
      {"transfer",
       "requires from != to; assignable from.balance, to.balance; ensures from.balance == "
       "\\old(from.balance) - amount;"},
      {"<init>", "requires initial >= 0; ensures balance == initial;"},
      {"deposit", "ensures (\\forall Account a; a.balance >= 0);"},
      {"deposit",
       "diverges false; when true; measured_by amount; working_space 10; duration 1; accessible "
       "balance; "
       "captures \\nothing; callable \\nothing;"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Check(c.method, c.spec), "") << c.method << ": " << c.spec;
  }
}

TEST_F(TypeCheckerTest, AnnotatesTypesAndSymbols) {
  ASSERT_EQ(
      Check("occurrences",
            "ensures \\result == (\\num_of int i; 0 <= i && i < a.length; a[i] == x) + balance;"),
      "");
  const Expr& eq = *spec_.cases[0].clauses[0].pred;
  EXPECT_EQ(eq.type, Type::Boolean());
  const Expr& plus = *eq.operands[1];
  EXPECT_EQ(plus.type, Type::Long());  // \num_of is long
  const Expr& num_of = *plus.operands[0];
  EXPECT_EQ(num_of.type, Type::Long());
  const Expr& balance = *plus.operands[1];
  EXPECT_EQ(balance.sym.kind, SymbolKind::kField);
  EXPECT_EQ(balance.sym.owner, "bank.Account");
  EXPECT_EQ(balance.sym.descriptor, "I");
  const Expr& body = QuantifierBody(num_of);
  const Expr& a_i = *body.operands[0];
  EXPECT_EQ(a_i.type, Type::Int());
  EXPECT_EQ(a_i.operands[0]->sym.kind, SymbolKind::kParameter);
  EXPECT_EQ(a_i.operands[0]->sym.index, 0);
  EXPECT_EQ(a_i.operands[0]->type, Type::ArrayOf(Type::Int()));
  EXPECT_EQ(a_i.operands[1]->sym.kind, SymbolKind::kBoundVar);
  EXPECT_EQ(a_i.operands[1]->sym.binder, &num_of);
  const Expr& x = *body.operands[1];
  EXPECT_EQ(x.sym.kind, SymbolKind::kParameter);
  EXPECT_EQ(x.sym.index, 1);
  const Expr& length = *QuantifierRange(num_of)->operands[1]->operands[1];
  EXPECT_EQ(length.sym.kind, SymbolKind::kArrayLength);
  EXPECT_EQ(ctx_.param_nullity[0], Nullity::kNonNull);
  EXPECT_EQ(ctx_.param_nullity[1], Nullity::kUnspecified);
}

TEST_F(TypeCheckerTest, MethodCallSymbols) {
  ASSERT_EQ(Check("getBalance",
                  "ensures \\result == clamp(balance, 0, 1) && clamp(1L, 0, 1) == 1 && "
                  "Math.max(1.5, 2) > 0;"),
            "");
  const Expr& conj = *spec_.cases[0].clauses[0].pred;
  const Expr& call_long = *conj.operands[0]->operands[1]->operands[0];
  EXPECT_EQ(call_long.sym.kind, SymbolKind::kMethod);
  EXPECT_EQ(call_long.sym.descriptor, "(JJJ)J");
  EXPECT_TRUE(call_long.sym.is_static);
  const Expr& call_int = *conj.operands[0]->operands[0]->operands[1];
  EXPECT_EQ(call_int.sym.descriptor, "(III)I");
  const Expr& max = *conj.operands[1]->operands[0];
  EXPECT_EQ(max.sym.owner, "java.lang.Math");
  EXPECT_EQ(max.sym.descriptor, "(DD)D");
}

TEST_F(TypeCheckerTest, MathModes) {
  ASSERT_EQ(Check("add", "ensures \\result == a + b;"), "");
  EXPECT_EQ(result_.math_mode, MathMode::kBigint);
  EXPECT_EQ(spec_.cases[0].clauses[0].pred->operands[1]->type, Type::Bigint());
  ASSERT_EQ(Check("withdraw", "ensures \\result == amount + 1;"), "");
  EXPECT_EQ(result_.math_mode, MathMode::kJava);
  EXPECT_EQ(spec_.cases[0].clauses[0].pred->operands[1]->type, Type::Int());
}

TEST_F(TypeCheckerTest, NotesForUncheckedClauses) {
  ASSERT_EQ(Check("deposit", "diverges false; ensures true; implies_that requires true;"), "");
  ASSERT_EQ(result_.notes.size(), 2u);
  EXPECT_EQ(result_.notes[0].message, "diverges clause parsed but not checked");
  EXPECT_EQ(result_.notes[1].message, "implies_that case parsed but not checked");
}

TEST_F(TypeCheckerTest, NotesForAClauseWithoutItsSemicolon) {
  // Accepted at the end of an annotation, but not silently: a clause, a
  // class-level clause and a loop annotation.
  const char* text = R"java(public class Semi {
  int size;
  //@ invariant size >= 0
  //@ requires x > 0;
  //@ ensures \result == x
  int id(int x) {
    int s = 0;
    //@ loop_invariant s >= 0
    for (int i = 0; i < x; i++) { s += 1; }
    return x;
  }
}
)java";
  auto unit = ParseJavaSource(text, "Semi.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  SourceTypeEnvironment env({unit->get()}, &JdkTypeEnvironment());
  TypeDecl* semi = (*unit)->FindType("Semi");
  ASSERT_NE(semi, nullptr);
  ASSERT_TRUE(semi->errors.empty()) << semi->errors[0];
  auto c = TypeChecker(env).CheckClassDecl(*semi, env);
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->notes.size(), 1u);
  EXPECT_EQ(c->notes[0].span.ToString(), "Semi.java:3:7");
  EXPECT_EQ(c->notes[0].message,
            "the invariant clause has no ';' at its end (accepted, as by OpenJML)");
  MethodDecl& id = semi->methods[0];
  auto ctx = MakeMethodContext(env, *semi, id);
  ASSERT_TRUE(ctx.ok());
  auto m = TypeChecker(env).CheckMethodSpec(id.spec, *ctx);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->notes.size(), 1u);
  EXPECT_EQ(m->notes[0].span.ToString(), "Semi.java:5:7");
  EXPECT_EQ(m->notes[0].message,
            "the ensures clause has no ';' at its end (accepted, as by OpenJML)");
  LocalsAtLine locals = [](int) {
    return std::vector<std::pair<std::string, Type>>{{"s", Type::Int()}};
  };
  auto b = TypeChecker(env).CheckBodyAnnotations(id.body_annotations, *ctx, locals);
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(b->notes.size(), 1u);
  EXPECT_EQ(b->notes[0].message,
            "the loop_invariant statement has no ';' at its end (accepted, as by OpenJML)");
}

TEST_F(TypeCheckerTest, RejectsIllTypedSpecificationsWithExactMessages) {
  struct Case {
    const char* method;
    const char* spec;
    const char* message;
  };
  const Case cases[] = {
      {"deposit", "ensures this.balanse == 0;",
       "Account.jml:1:14: unknown field 'balanse' in class bank.Account "
       "(did you mean 'balance'?)"},
      {"deposit", "ensures balanse == 0;",
       "Account.jml:1:9: unknown name 'balanse' (did you mean 'balance'?)"},
      {"deposit", "requires amount;",
       "Account.jml:1:10: the requires clause must be boolean, found int"},
      {"deposit", "requires amount > 0 && balance;",
       "Account.jml:1:24: operator '&&' cannot be applied to boolean and int"},
      {"deposit", "requires \\old(balance) > 0;",
       "Account.jml:1:10: '\\old' cannot be used in a requires clause; it refers to the pre-state, "
       "so it belongs in "
       "postconditions"},
      {"deposit", "ensures \\result == 0;",
       "Account.jml:1:9: '\\result' cannot be used: method deposit returns void"},
      {"getBalance", "requires \\result > 0;",
       "Account.jml:1:10: '\\result' cannot be used in a requires clause; only in ensures clauses"},
      {"getBalance", "signals (Exception e) \\result > 0;",
       "Account.jml:1:23: '\\result' cannot be used in a signals clause; only in ensures clauses"},
      {"<init>", "ensures \\result != null;",
       "Account.jml:1:9: '\\result' cannot be used: a constructor returns no "
       "value"},
      {"deposit", "signals (Account e) true;",
       "Account.jml:1:10: 'bank.Account' in signals is not an exception type (not a subclass of "
       "java.lang.Throwable)"},
      {"deposit", "signals_only String;",
       "Account.jml:1:14: 'java.lang.String' in signals_only is not an exception type (not a "
       "subclass of "
       "java.lang.Throwable)"},
      {"deposit", "signals (NoSuchException e) true;",
       "Account.jml:1:10: unknown type 'NoSuchException'"},
      {"deposit", "ensures balance == true;",
       "Account.jml:1:9: incomparable types int and boolean in '=='"},
      {"deposit", "ensures owner == next;",
       "Account.jml:1:9: incomparable types java.lang.String and bank.Account in "
       "'=='"},
      {"deposit", "ensures amount[0] == 1;", "Account.jml:1:9: array required, but int found"},
      {"copy", "ensures a[1L] == 1;", "Account.jml:1:11: array index must be int, found long"},
      {"copy", "ensures a.size == 1;",
       "Account.jml:1:11: arrays have no field 'size' (only length)"},
      {"getBalance", "ensures withdraw(1) > 0;",
       "Account.jml:1:9: method 'bank.Account.withdraw(I)I' is not pure; a specification may only "
       "call pure methods "
       "(declare it /*@ pure @*/)"},
      {"getBalance", "ensures clamp(1, 2) > 0;",
       "Account.jml:1:9: no unique method clamp(int, int) in class bank.Account; candidates: "
       "clamp(int, int, int), "
       "clamp(long, long, long)"},
      {"getBalance", "ensures frobnicate() > 0;",
       "Account.jml:1:9: unknown method 'frobnicate' in class bank.Account"},
      {"getBalance", "ensures owner.lenght() > 0;",
       "Account.jml:1:15: unknown method 'lenght' in class java.lang.String (did you mean "
       "'length'?)"},
      {"max", "ensures \\result == balance;",
       "Account.jml:1:20: instance field 'balance' cannot be used in a static context (static "
       "method max)"},
      {"max", "ensures this != null;",
       "Account.jml:1:9: 'this' cannot be used in a static context (static method max)"},
      {"<init>", "requires balance == 0;",
       "Account.jml:1:10: instance field 'balance' cannot be used in a requires clause of a "
       "constructor (the object "
       "does not exist yet)"},
      {"count", "ensures (\\forall int x; 0 <= x; a[x] > 0);",
       "Account.jml:1:22: bound variable 'x' shadows parameter 'x'"},
      {"count", "ensures (\\forall int i; a[i]);",
       "Account.jml:1:25: the body of \\forall must be boolean, found int"},
      {"count", "ensures (\\sum int i; 0 <= i; i > 0) > 0;",
       "Account.jml:1:30: the body of \\sum must be numeric, found boolean"},
      {"count", "ensures (\\forall int i; i; true);",
       "Account.jml:1:25: the range of \\forall must be boolean, found "
       "int"},
      {"deposit", "assignable amount;",
       "Account.jml:1:12: the assignable clause names parameter 'amount'; parameters are passed by "
       "value, so "
       "assigning one is invisible to callers (did you mean amount[*] or amount.*?)"},
      {"copy", "assignable a.length;",
       "Account.jml:1:14: the length of an array cannot change; remove it from the assignable "
       "clause"},
      {"copy", "assignable a[*], balance[*];", "Account.jml:1:18: array required, but int found"},
      {"deposit", "ensures (int) owner == 1;",
       "Account.jml:1:9: cannot cast java.lang.String to int"},
      {"deposit", "ensures owner instanceof Account;",
       "Account.jml:1:9: incompatible types: java.lang.String can never be a bank.Account"},
      {"deposit", "ensures \\old(\\old(balance)) == 0;",
       "Account.jml:1:14: '\\old' cannot be nested inside another '\\old'"},
      {"deposit", "requires \\fresh(next);",
       "Account.jml:1:10: '\\fresh' is only allowed in postconditions, not in a "
       "requires clause"},
      {"deposit", "ensures Account > 0;", "Account.jml:1:9: 'Account' is a type, not a value"},
      {"deposit", "ensures \\typeof(next) <: next;",
       "Account.jml:1:9: operator '<:' compares \\TYPE values (from \\type(T) or \\typeof(e)), "
       "found \\TYPE and "
       "bank.Account"},
      {"deposit", "normal_behavior signals (Exception e) true;",
       "Account.jml:1:17: a normal_behavior case cannot have a signals clause (it promises no "
       "exception)"},
      {"deposit", "exceptional_behavior ensures true;",
       "Account.jml:1:22: an exceptional_behavior case cannot have an ensures clause (it promises "
       "an exception)"},
      // A nested case is checked with the behavior its own header gives it.
      {"deposit", "behavior requires amount > 0; {| exceptional_behavior ensures true; |}",
       "Account.jml:1:55: an exceptional_behavior case cannot have an ensures clause (it promises "
       "an exception)"},
      {"deposit", "ensures Account.balance == 0;",
       "Account.jml:1:17: instance field 'balance' cannot be accessed through the class "
       "bank.Account"},
      {"deposit", "ensures (amount > 0 ? owner : 1) != null;",
       "Account.jml:1:9: incompatible types in '?:': java.lang.String and int"},
      {"deposit", "ensures \"a\" - 1 == 0;",
       "Account.jml:1:9: operator '-' cannot be applied to java.lang.String and "
       "int"},
      {"deposit", "ensures 1 << 2.0 > 0;",
       "Account.jml:1:9: operator '<<' cannot be applied to int and double"},
      {"deposit", "old int x = \\old(amount); requires x > 0;",
       "Account.jml:1:13: '\\old' cannot be used in an old variable's initializer; it refers to "
       "the pre-state, so it "
       "belongs in postconditions"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Check(c.method, c.spec), c.message) << c.method << ": " << c.spec;
    EXPECT_EQ(code_, absl::StatusCode::kInvalidArgument) << c.spec;
    code_ = absl::StatusCode::kOk;
  }
}

TEST_F(TypeCheckerTest, ReportsEveryErrorOnItsOwnLine) {
  EXPECT_EQ(Check("deposit", "requires amount;\nensures nope == 1;"),
            "Account.jml:1:10: the requires clause must be boolean, found int\n"
            "Account.jml:2:9: unknown name 'nope'");
}

TEST_F(TypeCheckerTest, UnsupportedConstructsAreUnimplemented) {
  const std::pair<const char*, const char*> cases[] = {
      {"ensures \\lockset == null;", "Account.jml:1:9: unsupported: JML construct '\\lockset'"},
      {"ensures \\reach(next) != null;", "Account.jml:1:9: unsupported: JML construct '\\reach'"},
      {"ensures (* balance grows *);",
       "Account.jml:1:9: unsupported: informal description '(* ... *)' cannot be "
       "checked"},
      {"ensures new Object() != null;",
       "Account.jml:1:9: unsupported: object creation in specifications"},
      {"ensures \\old(balance, L1) == 0;",
       "Account.jml:1:23: unsupported: \\old with the statement label 'L1'"},
      {"ensures \\same;", "Account.jml:1:9: unsupported: '\\same' outside a requires clause"},
      {"ensures Account.class != null;",
       "Account.jml:1:9: unsupported: class literals (use \\type(T) to talk about types)"},
  };
  for (const auto& [spec, message] : cases) {
    EXPECT_EQ(Check("deposit", spec), message) << spec;
    EXPECT_EQ(code_, absl::StatusCode::kUnimplemented) << spec;
    code_ = absl::StatusCode::kOk;
  }
  // Inside a clause that is not checked anyway, unsupported constructs pass.
  EXPECT_EQ(Check("deposit", "duration \\duration(deposit(1));"), "");
}

TEST_F(TypeCheckerTest, ArrayCreation) {
  EXPECT_EQ(Check("deposit", "ensures new int[]{1, 2}.length == 2 && new long[amount].length >= 0;"),
            "");
  EXPECT_EQ(code_, absl::StatusCode::kOk);
  EXPECT_EQ(Check("deposit", "ensures new byte[]{1, 300}.length == 2;"),
            "Account.jml:1:23: array initializer element: cannot convert int to byte");
  code_ = absl::StatusCode::kOk;
  EXPECT_EQ(Check("deposit", "ensures new int[true].length == 0;"),
            "Account.jml:1:17: array length must be int, found boolean");
  code_ = absl::StatusCode::kOk;
  // Several dimensions: rows for each given size, a nested initializer for
  // each row.
  EXPECT_EQ(Check("deposit",
                  "ensures new int[2][3].length == 2 && (new int[2][amount])[1].length >= 0 && "
                  "new long[amount][].length >= 0 && new int[][]{{1}, {2, 3}}[1][0] == 2;"),
            "");
  EXPECT_EQ(code_, absl::StatusCode::kOk);
  EXPECT_EQ(Check("deposit", "ensures new int[]{{1}}.length == 1;"),
            "Account.jml:1:19: illegal initializer for int");
  code_ = absl::StatusCode::kOk;
  EXPECT_EQ(Check("deposit", "ensures new int[][]{1}.length == 1;"),
            "Account.jml:1:21: array initializer element: cannot convert int to int[]");
  code_ = absl::StatusCode::kOk;
}

TEST_F(TypeCheckerTest, VisibilityRuleWhenAsked) {
  TypeCheckOptions strict;
  strict.enforce_visibility = true;
  EXPECT_EQ(Check("getBalance", "public normal_behavior ensures \\result == balance;", strict),
            "Account.jml:1:43: private field 'balance' cannot be used in a public specification "
            "(declare it "
            "spec_public or lower the specification's visibility)");
  EXPECT_EQ(Check("getBalance", "private normal_behavior ensures \\result == balance;", strict),
            "");
  EXPECT_EQ(Check("getBalance", "public normal_behavior ensures \\result == balance;"), "");
}

TEST_F(TypeCheckerTest, CheckExpression) {
  auto e = ParseExpressionText("balance + checksum", "x");
  ASSERT_TRUE(e.ok());
  auto ctx = MakeMethodContext(*env_, *decl_, Method("deposit"));
  ASSERT_TRUE(ctx.ok());
  auto t = TypeChecker(*env_).CheckExpression(**e, *ctx, TypeChecker::Position::kPrecondition);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(*t, Type::Long());
}

TEST_F(TypeCheckerTest, ClassDeclarations) {
  const char* text = R"java(package bank;
public class Box {
  private /*@ spec_public @*/ int size;
  //@ public ghost int version = 0;
  //@ public model int doubled;
  //@ represents doubled = size * 2;
  //@ public invariant size >= 0 && version >= 0;
  //@ public constraint size >= \old(size);
  //@ public static invariant true;
  //@ axiom 1 + 1 == 2;
  //@ initially size == 0;
  /*@ public model pure int twice(int x) { return x * 2; } @*/
  //@ ensures \result == twice(size);
  public /*@ pure @*/ int get() { return size; }
}
)java";
  auto unit = ParseJavaSource(text, "Box.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  SourceTypeEnvironment env({unit->get()}, &JdkTypeEnvironment());
  TypeDecl* box = (*unit)->FindType("bank.Box");
  auto r = TypeChecker(env).CheckClassDecl(*box, env);
  ASSERT_TRUE(r.ok()) << r.status();
  auto ctx = MakeMethodContext(env, *box, box->methods[1]);
  ASSERT_TRUE(ctx.ok());
  auto m = TypeChecker(env).CheckMethodSpec(box->methods[1].spec, *ctx);
  EXPECT_TRUE(m.ok()) << m.status();
}

TEST_F(TypeCheckerTest, ClassDeclarationErrors) {
  const char* text = R"java(public class Bad {
  int size;
  //@ ghost boolean flag = 3;
  //@ represents size = 1;
  //@ invariant \old(size) == size;
  //@ static invariant size > 0;
  //@ invariant \result == 0;
  /*@ model int twice(int x) { return x > 0; } @*/
}
)java";
  auto unit = ParseJavaSource(text, "Bad.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  SourceTypeEnvironment env({unit->get()}, &JdkTypeEnvironment());
  auto r = TypeChecker(env).CheckClassDecl(*(*unit)->FindType("Bad"), env);
  EXPECT_EQ(std::string(r.status().message()),
            "Bad.java:4:18: a represents clause must name a model field; 'size' is not one\n"
            "Bad.java:5:17: '\\old' cannot be used in an invariant; it refers to the pre-state, so "
            "it belongs in "
            "postconditions\n"
            "Bad.java:6:24: instance field 'size' cannot be used in a static context\n"
            "Bad.java:7:17: '\\result' cannot be used in an invariant; only in ensures clauses\n"
            "Bad.java:3:28: ghost field 'flag': cannot convert int to boolean\n"
            "Bad.java:8:39: the result of model method twice: cannot convert boolean to int");
}

TEST_F(TypeCheckerTest, BodyAnnotations) {
  const char* text = R"java(class Loop {
  //@ ghost int steps;
  static int sum(int[] a) {
    int s = 0;
    //@ ghost int seen = 0;
    //@ loop_invariant 0 <= i && i <= a.length && seen >= 0;
    //@ decreases a.length - i;
    //@ loop_modifies s, seen;
    for (int i = 0; i < a.length; i++) { s += a[i]; }
    //@ set seen = seen + 1;
    //@ assert s >= \old(a.length) - 100 : "message";
    //@ assume a != null;
    return s;
  }
}
)java";
  auto unit = ParseJavaSource(text, "Loop.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  SourceTypeEnvironment env({unit->get()}, &JdkTypeEnvironment());
  TypeDecl* loop = (*unit)->FindType("Loop");
  MethodDecl& sum = loop->methods[0];
  ASSERT_EQ(sum.body_annotations.size(), 7u);
  auto ctx = MakeMethodContext(env, *loop, sum);
  ASSERT_TRUE(ctx.ok());
  LocalsAtLine locals = [](int line) {
    std::vector<std::pair<std::string, Type>> out = {{"s", Type::Int()}};
    if (line >= 6 && line <= 9) out.emplace_back("i", Type::Int());
    return out;
  };
  auto r = TypeChecker(env).CheckBodyAnnotations(sum.body_annotations, *ctx, locals);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(sum.body_annotations[1].expr->operands[0]->operands[0]->operands[1]->sym.kind,
            SymbolKind::kLocal);
  EXPECT_EQ(sum.body_annotations[4].target->sym.kind, SymbolKind::kGhostLocal);

  // Without the locals, `i` is unknown; `set` of a real local is refused.
  std::vector<BodyAnnotation> bad;
  auto bad_unit = ParseJavaSource(
      "class L { void f(int p) { int q = 0;\n //@ assert i > 0;\n //@ set q = 1;\n //@ decreases "
      "true;\n } }",
      "L.java");
  ASSERT_TRUE(bad_unit.ok()) << bad_unit.status();
  SourceTypeEnvironment env2({bad_unit->get()}, &JdkTypeEnvironment());
  TypeDecl* l = (*bad_unit)->FindType("L");
  auto ctx2 = MakeMethodContext(env2, *l, l->methods[0]);
  ASSERT_TRUE(ctx2.ok());
  LocalsAtLine q_only = [](int) {
    return std::vector<std::pair<std::string, Type>>{{"q", Type::Int()}};
  };
  auto r2 = TypeChecker(env2).CheckBodyAnnotations(l->methods[0].body_annotations, *ctx2, q_only);
  EXPECT_EQ(std::string(r2.status().message()),
            "L.java:2:13: unknown name 'i' (did you mean 'p'?)\n"
            "L.java:3:10: set can only assign ghost variables and ghost fields; 'q' is not one\n"
            "L.java:4:16: decreases needs an integral value, found boolean");
}

TEST_F(TypeCheckerTest, StaticImports) {
  auto unit = ParseJavaSource(
      "import static java.lang.Math.*;\nimport static java.lang.Integer.MAX_VALUE;\n"
      "class S {\n  //@ ensures \\result == abs(x) && x < MAX_VALUE && max(x, 1) > 0;\n  int f(int "
      "x) { return x; }\n}\n",
      "S.java");
  ASSERT_TRUE(unit.ok()) << unit.status();
  SourceTypeEnvironment env({unit->get()}, &JdkTypeEnvironment());
  TypeDecl* s = (*unit)->FindType("S");
  auto ctx = MakeMethodContext(env, *s, s->methods[0]);
  ASSERT_TRUE(ctx.ok());
  auto r = TypeChecker(env).CheckMethodSpec(s->methods[0].spec, *ctx);
  ASSERT_TRUE(r.ok()) << r.status();
  const Expr& abs =
      *s->methods[0].spec.cases[0].clauses[0].pred->operands[0]->operands[0]->operands[1];
  EXPECT_EQ(abs.sym.owner, "java.lang.Math");
  EXPECT_EQ(abs.sym.descriptor, "(I)I");
}

TEST_F(TypeCheckerTest, ContextFromEnvironmentOnly) {
  NameContext names;
  auto ctx = MakeMethodContext(*env_, "bank.Account", "deposit", "(I)V", {"amt"}, names);
  ASSERT_TRUE(ctx.ok()) << ctx.status();
  EXPECT_EQ(ctx->names.package, "bank");
  auto text = ParseSpecText("requires amt > 0; ensures balance == \\old(balance) + amt;", "c.txt");
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(TypeChecker(*env_).CheckMethodSpec(text->spec, *ctx).ok());
  EXPECT_EQ(std::string(MakeMethodContext(*env_, "bank.Account", "deposit", "(J)V", {}, names)
                            .status()
                            .message()),
            "no method deposit(J)V in class bank.Account");
  EXPECT_EQ(
      std::string(MakeMethodContext(*env_, "bank.Account", "deposit", "(I)V", {"a", "b"}, names)
                      .status()
                      .message()),
      "method bank.Account.deposit(I)V has 1 parameters but 2 names are known; the specification "
      "needs their "
      "names");
}

}  // namespace
}  // namespace tracespec::jml
