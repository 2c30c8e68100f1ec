// The JML checks on classes compiled by the real javac: the lowering's
// semantics (Java arithmetic, \old, quantifiers and generalized quantifiers,
// signals, spec cases, frames, well-definedness), bounds, coverage of
// hand-built observations (redacted fields free) and contract errors with
// their positions.
#include "validator/check/validator.h"

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::check {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const char* kSource = R"java(
package t;

public class M {
  int count;
  int other;
  int pin;

  public static int inc(int x) {
    return x + 1;
  }

  public void bump(int d) {
    count += d;
    other = 1;
  }

  public static int sum(int[] a) {
    int s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i];
    }
    return s;
  }

  public static int max(int[] a) {
    int m = a[0];
    for (int i = 1; i < a.length; i++) {
      if (a[i] > m) {
        m = a[i];
      }
    }
    return m;
  }

  public static int countZeros(int[] a) {
    int n = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] == 0) {
        n++;
      }
    }
    return n;
  }

  public static boolean sorted(int[] a) {
    for (int i = 0; i + 1 < a.length; i++) {
      if (a[i] > a[i + 1]) {
        return false;
      }
    }
    return true;
  }

  public static int div(int a, int b) {
    if (b == 0) {
      throw new IllegalArgumentException("zero");
    }
    return a / b;
  }

  public static void fill(int[] a, int v) {
    for (int i = 0; i < a.length; i++) {
      a[i] = v;
    }
  }

  public int get() {
    return count;
  }

  public void twice() {
    count = get() * 2;
  }

  public static int[] maybe(boolean b) {
    return b ? new int[1] : null;
  }

  public static int[] make(int n) {
    return new int[n];
  }

  public static int loop(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
      s++;
    }
    return s;
  }

  public static long fact(int n) {
    long r = 1;
    for (int i = 2; i <= n; i++) {
      r *= i;
    }
    return r;
  }

  public static long widen(int x) {
    return (long) x * x;
  }

  public static boolean same(Object o, Object p) {
    return o == p;
  }
}
)java";

const char* kAcc = R"java(
package t;

public class Acc {
  static int limit = 100;
  private int balance;

  public void add(int x) {
    if (balance + x > limit) {
      throw new IllegalStateException("limit");
    }
    balance += x;
  }

  public static double toCelsius(double f) {
    return (f - 32) * 5 / 9;
  }
}
)java";

// A contract in Java source form: spec_public, a model field with its
// represents clause, an invariant, a static field.
const char* kAccContract = R"java(
package t;

public class Acc {
  static int limit;
  private /*@ spec_public @*/ int balance;
  //@ public model int money;
  //@ private represents money = balance;
  //@ public invariant balance >= 0;

  //@ requires x >= 0 && limit >= 0 && balance <= limit - x;
  //@ ensures money == \old(money) + x;
  //@ assignable balance;
  public void add(int x) {
  }
}
)java";

// Reference fields are non_null by JML's default (an implicit invariant).
const char* kBuf = R"java(
package t;

public class Buf {
  int[] items;
  int size;
  String name;

  public Buf() {
    items = new int[4];
  }

  public Buf(int n) {
    items = new int[n];
    name = "b";
  }

  public int first() {
    return items[0];
  }
}
)java";

// A source carrying its own contract, with assert and assume statements in
// the bodies (the contract's lines are the class file's lines).
const char* kBody = R"java(
package t;

public class Body {
  //@ requires 0 <= n && n <= 3;
  //@ ensures \result == n;
  public static int count(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
      s++;
    }
    //@ assert s == n;
    return s;
  }

  //@ ensures \result >= 0;
  public static int half(int x) {
    //@ assume x >= 0;
    return x / 2;
  }

  //@ ensures true;
  public static int twice(int x) {
    int y = x * 2;
    //@ assert y > x;
    return y;
  }

  //@ ensures true; signals_only ArrayIndexOutOfBoundsException;
  public static int guarded(int[] a) {
    //@ assume a[0] > 0;
    return a[0];
  }

  //@ requires 0 <= n && n <= 3;
  //@ ensures \result == 0;
  public static int countdown(int n) {
    int i = n;
    //@ assert i == n;
    while (i > 0) {
      i--;
    }
    return i;
  }

  //@ requires 0 <= n && n <= 3;
  //@ ensures true;
  public static int steps(int n, boolean off) {
    int s = 0;
    //@ ghost int k = 0;
    for (int i = 1; i <= n; i++) {
      s += i;
      //@ set k = k + 1;
    }
    //@ ghost boolean big;
    if (off) {
      //@ set big = k > 1;
      s++;
    } else {
      //@ set big = k > 2;
      s--;
    }
    //@ assert off ? big == (n > 1) : big == (n > 2);
    //@ assert k == n;
    return s;
  }

  //@ ensures true;
  public static int late(int x) {
    int y = 0;
    //@ ghost int g = 0;
    if (x > 0) {
      y = 1;
      //@ set g = 1;
    }
    //@ assert g == y;
    return y;
  }
}
)java";

constexpr CheckStatus kPass = CheckStatus::kPass;
constexpr CheckStatus kFail = CheckStatus::kFail;

std::string Text(const ValidationReport& r) { return FormatReportText(r); }

class ValidatorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    classes_ = new std::string(testing::CompileJava(*dir_, {{"t/M.java", kSource}, {"t/Acc.java", kAcc}, {"t/Buf.java", kBuf}, {"t/Body.java", kBody}}, {"-g"}));
  }
  static void TearDownTestSuite() {
    delete classes_;
    delete dir_;
  }

  ValidationReport Check(const std::string& method, const std::string& contract,
                         int unwind = 5, const std::string& file = "c.jml-text") {
    auto validator = Validator::Create(*classes_);
    EXPECT_TRUE(validator.ok()) << validator.status();
    ValidateRequest request;
    request.method = absl::StrContains(method, '#') ? method : absl::StrCat("t.M#", method);
    request.contract = contract;
    request.contract_file = file;
    request.unwind = unwind;
    request.timeout_seconds = 60;
    auto report = (*validator)->Validate(request);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.value_or(ValidationReport{});
  }

  // A contract and the consistency verdict it must get.
  struct Verdict {
    std::string method;
    std::string contract;
    CheckStatus status;
    int unwind = 5;
  };
  void ExpectVerdicts(const std::vector<Verdict>& cases) {
    for (const Verdict& c : cases) {
      SCOPED_TRACE(absl::StrCat(c.method, " with ", c.contract));
      ValidationReport r = Check(c.method, c.contract, c.unwind);
      EXPECT_EQ(r.consistency.status, c.status) << Text(r);
    }
  }

  static testing::TempDir* dir_;
  static std::string* classes_;
};

testing::TempDir* ValidatorTest::dir_ = nullptr;
std::string* ValidatorTest::classes_ = nullptr;

const v1::Value* Arg(const v1::Observation& o, int i) { return &o.args(i); }

TEST_F(ValidatorTest, ArithmeticWrapsAroundAsInJava) {
  ValidationReport r = Check("inc", "//@ ensures \\result > x;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  ASSERT_EQ(r.consistency.counterexamples.size(), 1u);
  EXPECT_EQ(Arg(r.consistency.counterexamples[0], 0)->int_value(), 2147483647);
  EXPECT_EQ(r.consistency.counterexamples[0].source(), v1::COUNTEREXAMPLE);
  EXPECT_EQ(r.consistency.diagnostics[0].span.line, 1);
  EXPECT_EQ(r.Bits(), "0-");  // coverage skipped: no observations
  r = Check("inc", "//@ ensures \\result == x + 1;");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  EXPECT_TRUE(r.consistency.complete);
  EXPECT_EQ(r.coverage.status, CheckStatus::kSkipped);
  EXPECT_EQ(r.Bits(), "1-");
  EXPECT_TRUE(r.Passed());
  EXPECT_THAT(Text(r), HasSubstr("consistency: PASS (complete)"));
  // Widening happens before the multiplication.
  ExpectVerdicts({{"widen", "//@ ensures \\result == (long) x * x;", kPass},
                  {"widen", "//@ ensures \\result == x * x;", kFail}});
}

TEST_F(ValidatorTest, OldReadsThePreStateAndPureCallsAreInlined) {
  ExpectVerdicts({{"bump", "//@ ensures count == \\old(count) + d;", kPass},
                  {"bump", "//@ ensures count == \\old(count);", kFail},
                  {"twice", "//@ ensures get() == \\old(get()) * 2;", kPass},
                  {"twice", "//@ ensures get() == \\old(get()) + 2;", kFail}});
}

TEST_F(ValidatorTest, QuantifiersOverArraysExpandExactly) {
  const std::string non_null = "//@ requires a != null;\n";
  const std::string non_empty = "//@ requires a != null && a.length > 0;\n";
  ValidationReport r = Check(
      "sum", non_null + "//@ ensures \\result == (\\sum int i; 0 <= i && i < a.length; a[i]);");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  // The expansion cuts nothing: the one cut is the bound on the array.
  EXPECT_THAT(r.consistency.cuts, ElementsAre("input arrays of at most 4 elements")) << Text(r);
  ExpectVerdicts({
      {"sum", non_null + "//@ ensures \\result == (\\sum int i; 0 <= i && i < a.length - 1; a[i]);",
       kFail},
      {"max",
       non_empty + "//@ ensures \\result == (\\max int i; 0 <= i && i < a.length; a[i]);\n"
                   "//@ ensures (\\forall int i; 0 <= i && i < a.length; a[i] <= \\result);\n"
                   "//@ ensures (\\exists int j; 0 <= j && j < a.length; a[j] == \\result);",
       kPass},
      {"max", non_empty + "//@ ensures \\result == (\\min int i; 0 <= i && i < a.length; a[i]);",
       kFail},
      {"countZeros",
       non_null + "//@ ensures \\result == (\\num_of int i; 0 <= i && i < a.length; a[i] == 0);",
       kPass},
      {"countZeros",
       non_null + "//@ ensures \\result == (\\num_of int i; 0 <= i && i < a.length; a[i] != 0);",
       kFail},
      // Two bound variables, arithmetic over them, bounds in the body.
      {"sorted",
       non_null + "//@ ensures \\result <==> (\\forall int i, j; 0 <= i && i < j && j < a.length; "
                  "a[i] <= a[j]);",
       kPass},
      {"sorted",
       non_null + "//@ ensures \\result <==> (\\forall int i; 0 <= i && i + 1 < a.length ==> "
                  "a[i] < a[i + 1]);",
       kFail},
  });
}

TEST_F(ValidatorTest, UnboundedRangesUseQuantifiersOrAreUnknownNeverTruncated) {
  ExpectVerdicts({
      // \forall over 0..n with n unbounded: a Z3 quantifier.
      {"make",
       "//@ requires n >= 0;\n"
       "//@ ensures \\result.length == n && (\\forall int i; 0 <= i && i < n; \\result[i] == 0);",
       kPass},
      // \sum over a range bounded by the precondition: expanded.
      {"make",
       "//@ requires n >= 0 && n <= 3;\n"
       "//@ ensures (\\sum int i; 0 <= i && i < n; \\result[i]) == 0;",
       kPass},
  });
  // The same over an unbounded range: not expanded, UNKNOWN naming it.
  ValidationReport r = Check("make",
                             "//@ requires n >= 0;\n"
                             "//@ ensures (\\sum int i; 0 <= i && i < n; \\result[i]) == 0;");
  EXPECT_EQ(r.consistency.status, CheckStatus::kUnknown) << Text(r);
  ASSERT_FALSE(r.consistency.diagnostics.empty());
  EXPECT_EQ(r.consistency.diagnostics[0].kind, Diagnostic::Kind::kUnsupported);
  EXPECT_THAT(r.consistency.summary, HasSubstr("\\sum"));
}

TEST_F(ValidatorTest, RangesBoundedByThePreconditionExpandBeyondTheArrayCap) {
  ValidationReport r = Check("fact",
                             "//@ requires 0 <= n && n <= 20;\n"
                             "//@ ensures \\result == (\\product int i; 1 <= i && i <= n; (long) i);",
                             /*unwind=*/21);
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  EXPECT_TRUE(r.consistency.complete) << Text(r);
  ExpectVerdicts({{"fact",
                   "//@ requires 0 <= n && n <= 20;\n"
                   "//@ ensures \\result == (\\product int i; 1 <= i && i < n; (long) i);",
                   kFail, /*unwind=*/21}});
}

TEST_F(ValidatorTest, WrapAroundInARangeIsReportedWithTheBoundValue) {
  // i + 1 < a.length holds for i = Integer.MAX_VALUE (i + 1 wraps): a[i] is
  // then out of bounds, and the diagnostic shows that value.
  ValidationReport r = Check("sum",
                             "//@ requires a != null && "
                             "(\\forall int i; 0 <= i && i + 1 < a.length; a[i] <= a[i + 1]);\n"
                             "//@ ensures true;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.consistency.diagnostics[0].kind, Diagnostic::Kind::kWellDefinedness);
  EXPECT_THAT(r.consistency.diagnostics[0].message, HasSubstr("with i = 2147483647"));
  // Written without the wrap-around, the same range is well-defined.
  ExpectVerdicts({{"sum",
                   "//@ requires a != null && "
                   "(\\forall int i; 0 <= i && i < a.length - 1; a[i] <= a[i + 1]);\n"
                   "//@ ensures true;",
                   kPass}});
}

TEST_F(ValidatorTest, SignalsAndExceptionalBehavior) {
  const std::string both =
      "/*@ public normal_behavior\n"
      "  @   requires b != 0;\n"
      "  @   ensures \\result == a / b;\n"
      "  @ also\n"
      "  @ public exceptional_behavior\n"
      "  @   requires b == 0;\n"
      "  @   signals_only IllegalArgumentException;\n"
      "  @*/";
  ExpectVerdicts({
      {"div", "//@ ensures \\result == a / b;\n//@ signals (IllegalArgumentException e) b == 0;",
       kPass},
      {"div", "//@ signals_only ArithmeticException;", kFail},
      {"div", both, kPass},
  });
  ValidationReport r = Check("div", "//@ signals (IllegalArgumentException e) b > 0;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.consistency.counterexamples[0].outcome().thrown().class_name(),
            "java.lang.IllegalArgumentException");
  std::string wrong = both;
  wrong.replace(wrong.find("b == 0"), 6, "b == 1");
  r = Check("div", wrong);
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_THAT(r.consistency.summary, HasSubstr("exceptional_behavior"));
  r = Check("div", "/*@ public normal_behavior\n  @   ensures \\result == a / b;\n  @*/");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(Arg(r.consistency.counterexamples[0], 1)->int_value(), 0);
}

TEST_F(ValidatorTest, AssignableNamesTheLocationOutsideTheFrame) {
  ValidationReport r = Check("bump", "//@ assignable count;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  ASSERT_FALSE(r.consistency.explanations.empty());
  EXPECT_THAT(r.consistency.explanations[0], HasSubstr("this.other changed"));
  r = Check("fill", "//@ requires a != null && a.length > 2;\n//@ assignable a[0 .. 1];");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_THAT(r.consistency.explanations[0], HasSubstr("a["));
  ExpectVerdicts({{"bump", "//@ assignable count, other;", kPass},
                  {"bump", "//@ assignable this.*;", kPass},
                  {"fill", "//@ requires a != null;\n//@ assignable a[*];", kPass},
                  {"fill", "//@ assignable \\nothing;", kFail},
                  // New objects are not part of the frame.
                  {"make", "//@ requires n >= 0;\n//@ assignable \\nothing;", kPass}});
}

TEST_F(ValidatorTest, ASpecTextsDeclarationMakesAParameterNullable) {
  // JML's default is non_null: `fill(null, v)` is outside every contract
  // of the bare text. The text's own declaration can say otherwise, and
  // then the null call must be described.
  const std::string clauses = "//@ assignable a[*];\n";
  ExpectVerdicts(
      {{"fill", clauses, kPass},
       {"fill", clauses + "public static void fill(/*@ nullable @*/ int[] a, int v);", kFail},
       {"fill",
        "//@ public normal_behavior\n//@   requires a != null;\n//@   assignable a[*];\n"
        "//@ also\n//@ public exceptional_behavior\n//@   requires a == null;\n"
        "//@   assignable \\nothing;\n//@   signals_only NullPointerException;\n"
        "public static void fill(/*@ nullable @*/ int[] a, int v);",
        kPass}});
}

TEST_F(ValidatorTest, WellDefinednessHasItsOwnCounterexample) {
  ValidationReport r = Check("maybe", "//@ ensures \\result != null ==> \\result[0] == 0;");
  EXPECT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);  // non_null result by default
  r = Check("maybe", "/*@ nullable @*/ //@ ensures \\result[0] == 0;");
  bool found = false;
  for (const Diagnostic& d : r.consistency.diagnostics) {
    if (d.kind != Diagnostic::Kind::kWellDefinedness) continue;
    found = true;
    EXPECT_THAT(d.message, HasSubstr("null dereference"));
    ASSERT_EQ(d.counterexamples.size(), 1u);
    const v1::Observation& o = r.consistency.counterexamples[d.counterexamples[0]];
    EXPECT_FALSE(Arg(o, 0)->bool_value());
    EXPECT_TRUE(o.outcome().returned().has_null_value());
  }
  EXPECT_TRUE(found) << Text(r);
  r = Check("inc", "//@ ensures \\result / x == 1 || x != 1;");
  found = false;
  for (const Diagnostic& d : r.consistency.diagnostics) {
    found |= d.kind == Diagnostic::Kind::kWellDefinedness &&
             absl::StrContains(d.message, "division by zero");
  }
  EXPECT_TRUE(found) << Text(r);
}

TEST_F(ValidatorTest, TheArrayBoundIsACutUnlessThePreconditionExcludesLongerArrays) {
  const std::string sum = "//@ ensures \\result == (\\sum int i; 0 <= i && i < a.length; a[i]);";
  // Arrays of 5 elements satisfy the precondition; only the bound left them out.
  ValidationReport r = Check("sum", "//@ requires a != null;\n" + sum);
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  EXPECT_FALSE(r.consistency.complete);
  EXPECT_THAT(r.consistency.cuts, ElementsAre("input arrays of at most 4 elements"));
  EXPECT_THAT(Text(r),
              HasSubstr("consistency: PASS (within bounds: input arrays of at most 4 elements"));
  // Arrays of L elements, but no longer ones: nothing was cut.
  r = Check("sum", "//@ requires a != null && a.length <= 4;\n" + sum);
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  EXPECT_TRUE(r.consistency.complete) << Text(r);
  // Every admitted array is longer than L: the bound cut them all, so no
  // execution was checked (it was a PASS within bounds until stop 36). The
  // deeper check (arrays up to 8) finds no violation, and only a FAIL
  // there would change the verdict.
  r = Check("sum", "//@ requires a != null && a.length == 6;\n" + sum);
  EXPECT_EQ(r.consistency.status, CheckStatus::kUnknown) << Text(r);
  EXPECT_THAT(r.consistency.summary,
              HasSubstr("nothing was checked: no pre-state satisfies the preconditions"));
  EXPECT_THAT(r.consistency.cuts, ::testing::IsEmpty());
  // References that may be arrays or strings, whose lengths nothing reads.
  r = Check("same", "//@ ensures \\result <==> o == p;");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  EXPECT_TRUE(r.consistency.complete) << Text(r);
}

TEST_F(ValidatorTest, CutLoopsGiveAPassWithinBounds) {
  ValidationReport r = Check("loop", "//@ ensures \\result == (n < 0 ? 0 : n);", /*unwind=*/3);
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  EXPECT_FALSE(r.consistency.complete);
  ASSERT_EQ(r.consistency.cuts.size(), 1u);
  EXPECT_THAT(r.consistency.cuts[0], HasSubstr("cut at k=3"));
  EXPECT_THAT(r.consistency.summary, HasSubstr("within bounds: loop at line"));
  r = Check("loop", "//@ ensures \\result == n;", /*unwind=*/3);
  EXPECT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
}

TEST_F(ValidatorTest, ContractErrorsCarryPositions) {
  ValidationReport r = Check("inc", "//@ requires x > 0;\n//@ ensures \\result == ;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kError) << Text(r);
  ASSERT_FALSE(r.consistency.diagnostics.empty());
  EXPECT_EQ(r.consistency.diagnostics[0].kind, Diagnostic::Kind::kSyntax);
  EXPECT_EQ(r.consistency.diagnostics[0].span.line, 2);
  EXPECT_EQ(r.consistency.diagnostics[0].span.column, 24);
  r = Check("bump", "//@ ensuers count > 0;");
  EXPECT_EQ(r.consistency.status, CheckStatus::kError) << Text(r);
  r = Check("bump", "//@ ensures cuont == \\old(count) + d;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kError) << Text(r);
  EXPECT_EQ(r.consistency.diagnostics[0].kind, Diagnostic::Kind::kType);
  EXPECT_THAT(r.consistency.diagnostics[0].message, HasSubstr("cuont"));
  EXPECT_EQ(r.consistency.diagnostics[0].span.column, 13);
  // Unsupported constructs: UNKNOWN with the construct named.
  r = Check("inc", "//@ ensures (* the next integer *);");
  EXPECT_EQ(r.consistency.status, CheckStatus::kUnknown) << Text(r);
  EXPECT_EQ(r.consistency.diagnostics[0].kind, Diagnostic::Kind::kUnsupported);
  r = Check("inc", "//@ ensures Character.isDigit((char) x) ==> \\result > 0;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kUnknown) << Text(r);
  EXPECT_THAT(r.consistency.summary, HasSubstr("java.lang.Character.isDigit"));
}

TEST_F(ValidatorTest, LibraryCallsInSpecsUseTheExecutorsModels) {
  // The same models as the bytecode's calls: Integer.signum, Math.max of
  // doubles (signed zeros), Double.compare (-0.0 below 0.0).
  ExpectVerdicts({
      {"inc", "//@ requires 0 <= x && x < 1000; ensures Integer.signum(\\result) == 1;", kPass},
      {"inc", "//@ requires x < 1000; ensures Integer.signum(\\result) == 1;", kFail},
      {"inc", "//@ ensures Double.compare(Math.max(-0.0, 0.0), 0.0) == 0;", kPass},
      {"inc", "//@ ensures Double.compare(-0.0, 0.0) == 0;", kFail},
      {"inc", "//@ ensures Long.bitCount((long) \\result) >= 0 && Integer.max(x, \\result) >= x;",
       kPass},
  });
  // A call that throws is a well-definedness diagnostic of its clause.
  ValidationReport r = Check("inc", "//@ ensures Math.floorMod(\\result, x) >= 0;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.consistency.diagnostics[0].kind, Diagnostic::Kind::kWellDefinedness);
  EXPECT_THAT(r.consistency.diagnostics[0].message, HasSubstr("exception thrown by java.lang.Math.floorMod"));
}

TEST_F(ValidatorTest, JavaContractsWithInvariantsModelFieldsAndStatics) {
  ValidationReport r = Check("t.Acc#add", kAccContract, 5, "Acc.java");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  // Without the guard against overflow the invariant breaks at exit.
  std::string weak = kAccContract;
  weak.replace(weak.find("x >= 0 && limit >= 0 && balance <= limit - x"), 44,
               "balance + x <= limit");
  r = Check("t.Acc#add", weak, 5, "Acc.java");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_THAT(r.consistency.summary, HasSubstr("invariant balance >= 0"));
  std::string wrong = kAccContract;
  wrong.replace(wrong.find("+ x;"), 4, "+ x + 1;");
  r = Check("t.Acc#add", wrong, 5, "Acc.java");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.consistency.diagnostics[0].span.line, 12);
  // IEEE arithmetic and the Double predicates.
  r = Check("t.Acc#toCelsius",
            "//@ requires !Double.isNaN(f);\n//@ ensures \\result == (f - 32) * 5 / 9;");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  r = Check("t.Acc#toCelsius", "//@ ensures \\result == (f - 32) * 5 / 9;");
  EXPECT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);  // NaN != NaN
}

// The method M.sum with a loop invariant in front of its loop, on the lines
// of kSource (the `for` is line 20, as in the class file's line table).
std::string SumWithInvariant(const std::string& invariant) {
  return "package t;\npublic class M {\n" + std::string(13, '\n') +
         "  //@ requires a != null;\n"
         "  public static int sum(int[] a) {\n"
         "    int s = 0;\n"
         "    //@ maintaining " + invariant + ";\n"
         "    for (int i = 0; i < a.length; i++) {\n"
         "      s += a[i];\n"
         "    }\n"
         "    return s;\n"
         "  }\n"
         "}\n";
}

TEST_F(ValidatorTest, LoopInvariantsAreCheckedUnlessSkipped) {
  auto run = [&](const std::string& invariant, bool check) {
    auto validator = Validator::Create(*classes_);
    EXPECT_TRUE(validator.ok());
    ValidateRequest request;
    request.method = "t.M#sum";
    request.contract = SumWithInvariant(invariant);
    request.contract_file = "M.java";
    request.unwind = 5;
    request.check_loop_invariants = check;
    auto report = (*validator)->Validate(request);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.value_or(ValidationReport{});
  };
  const std::string good = "0 <= i && i <= a.length && s == (\\sum int k; 0 <= k && k < i; a[k])";
  ValidationReport r = run(good, true);
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  // No loop is cut (the invariant checks do not make one): only the array bound.
  EXPECT_THAT(r.consistency.cuts, ElementsAre("input arrays of at most 4 elements")) << Text(r);
  r = run("0 <= i && i < a.length", true);
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.consistency.diagnostics[0].span.line, 19);
  EXPECT_THAT(r.consistency.diagnostics[0].message, HasSubstr("head of the loop at line 20"));
  // Checked by default.
  EXPECT_TRUE(ValidateRequest{}.check_loop_invariants);
  // Skipped when asked, with a note.
  r = run("0 <= i && i < a.length", false);
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_THAT(r.notes[0].message, HasSubstr("ignored"));
  // Locals are typed from the class file's LocalVariableTable.
  r = run("j == 0", true);
  EXPECT_EQ(r.consistency.status, CheckStatus::kError) << Text(r);
}

TEST_F(ValidatorTest, BadRequestsAreErrors) {
  auto validator = Validator::Create(*classes_);
  ASSERT_TRUE(validator.ok());
  ValidateRequest request;
  request.contract = "//@ ensures true;";
  request.method = "t.M#nope";
  EXPECT_FALSE((*validator)->Validate(request).ok());
  request.method = "t.Nope#inc";
  EXPECT_FALSE((*validator)->Validate(request).ok());
  request.method = "t.M#inc";
  request.has_observations = true;
  v1::Observation other;
  other.mutable_method()->set_class_name("t.M");
  other.mutable_method()->set_name("bump");
  other.mutable_method()->set_jvm_descriptor("(I)V");
  request.observations.push_back(other);
  auto report = (*validator)->Validate(request);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()), HasSubstr("t.M#bump(I)V"));
  EXPECT_FALSE(Validator::Create("/no/such/dir").ok());
  // The same validator serves further requests.
  request.has_observations = false;
  request.observations.clear();
  request.contract = "//@ ensures \\result == x + 1;";
  report = (*validator)->Validate(request);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->Bits(), "1-");
  request.method = "t.M#bump";
  request.contract = "//@ assignable count;";
  report = (*validator)->Validate(request);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->consistency.status, CheckStatus::kFail);
}

// ---- coverage ----

v1::Value Int(int v) {
  v1::Value out;
  out.set_int_value(v);
  return out;
}

v1::Observation BumpObservation(int count_before, int d, int count_after, bool redact_pin) {
  v1::Observation o;
  o.set_format_version(v1::FORMAT_VERSION_1);
  o.set_source(v1::RECORDED);
  o.set_test_id("t.MTest#bump");
  v1::MethodRef* m = o.mutable_method();
  m->set_class_name("t.M");
  m->set_name("bump");
  m->set_jvm_descriptor("(I)V");
  m->add_param_names("d");
  o.mutable_receiver()->set_ref(1);
  *o.add_args() = Int(d);
  for (bool post : {false, true}) {
    v1::ObjectState* s = post ? o.add_post() : o.add_pre();
    s->set_id(1);
    s->set_class_name("t.M");
    auto add = [&](const std::string& name, v1::Value v) {
      v1::Field* f = s->add_fields();
      f->set_name(name);
      f->set_jvm_type("I");
      f->set_declaring_class("t.M");
      *f->mutable_value() = v;
    };
    add("count", Int(post ? count_after : count_before));
    add("other", Int(post ? 1 : 0));
    v1::Value pin;
    if (redact_pin) {
      pin.mutable_redacted();
    } else {
      pin = Int(7);
    }
    add("pin", pin);
  }
  o.mutable_outcome()->mutable_returned_void();
  return o;
}

ValidationReport Cover(const std::string& classes, const std::string& contract,
                       const std::vector<v1::Observation>& observations,
                       bool coverage_only = false) {
  auto validator = Validator::Create(classes);
  EXPECT_TRUE(validator.ok());
  ValidateRequest request;
  request.method = "t.M#bump";
  request.contract = contract;
  request.has_observations = true;
  request.observations = observations;
  request.coverage_only = coverage_only;
  auto report = (*validator)->Validate(request);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.value_or(ValidationReport{});
}

TEST_F(ValidatorTest, CoverageAdmitsRejectsAndLeavesRedactedFieldsFree) {
  std::vector<v1::Observation> obs = {BumpObservation(1, 2, 3, false),
                                      BumpObservation(5, 1, 6, true)};
  ValidationReport r = Cover(*classes_, "//@ ensures count == \\old(count) + d;", obs);
  EXPECT_EQ(r.coverage.status, CheckStatus::kPass) << Text(r);
  EXPECT_EQ(r.coverage.admitted, 2);
  EXPECT_EQ(r.coverage.total, 2);
  EXPECT_THAT(Text(r), HasSubstr("coverage: PASS (2 of 2 observations admitted)"));
  // A clause about the redacted field cannot be decided: admitted, counted.
  r = Cover(*classes_, "//@ ensures pin == 7;", obs);
  EXPECT_EQ(r.coverage.status, CheckStatus::kPass) << Text(r);
  EXPECT_THAT(r.coverage.summary, HasSubstr("1 undecided"));
  EXPECT_THAT(r.coverage.summary, HasSubstr("pin"));
  // A wrong clause rejects the observation, which is the counterexample.
  obs.push_back(BumpObservation(2, 3, 4, false));
  r = Cover(*classes_, "//@ ensures count == \\old(count) + d;", obs);
  ASSERT_EQ(r.coverage.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.coverage.admitted, 2);
  ASSERT_EQ(r.coverage.counterexamples.size(), 1u);
  EXPECT_EQ(r.coverage.counterexamples[0].args(0).int_value(), 3);
  EXPECT_THAT(r.coverage.explanations[0], HasSubstr("count == \\old(count) + d"));
  EXPECT_EQ(r.Bits(), "10");
  // The same call recorded in a failing test: rejecting it agrees with the
  // test, so coverage passes and says so.
  obs.back().set_test_failed(true);
  obs.back().set_excluded(true);
  r = Cover(*classes_, "//@ ensures count == \\old(count) + d;", obs);
  ASSERT_EQ(r.coverage.status, CheckStatus::kPass) << Text(r);
  EXPECT_EQ(r.coverage.admitted, 2);
  EXPECT_TRUE(r.coverage.counterexamples.empty());
  EXPECT_EQ(r.coverage.summary,
            "2 of 3 observations admitted, 1 call of failing tests rejected (as those tests "
            "expect)");
  // The frame: `other` changed.
  r = Cover(*classes_, "//@ assignable count;", {BumpObservation(1, 2, 3, false)});
  EXPECT_EQ(r.coverage.status, CheckStatus::kFail) << Text(r);
  EXPECT_THAT(r.coverage.explanations[0], HasSubstr("other"));
  // Undefined clauses are reported as such.
  r = Cover(*classes_, "//@ ensures count / (d - 2) == 0;", {BumpObservation(1, 2, 3, false)});
  ASSERT_EQ(r.coverage.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.coverage.diagnostics[0].kind, Diagnostic::Kind::kWellDefinedness);
  // So is an array created with a negative size (d - 3 is -1).
  r = Cover(*classes_, "//@ ensures new int[d - 3].length >= 0;", {BumpObservation(1, 2, 3, false)});
  ASSERT_EQ(r.coverage.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.coverage.diagnostics[0].kind, Diagnostic::Kind::kWellDefinedness) << Text(r);
  // A fresh array of the given length: admitted, not undecided.
  r = Cover(*classes_, "//@ ensures new int[d].length == 2 && (new int[d])[1] == 0;",
            {BumpObservation(1, 2, 3, false)});
  ASSERT_EQ(r.coverage.status, CheckStatus::kPass) << Text(r);
  EXPECT_EQ(r.coverage.summary, "1 of 1 observations admitted") << Text(r);
}

TEST_F(ValidatorTest, CoverageSaysWhatItMadeOfEachObservationAndCanRunAlone) {
  std::vector<v1::Observation> obs = {BumpObservation(1, 2, 3, false),
                                      BumpObservation(2, 3, 4, false),
                                      BumpObservation(5, 1, 6, true)};
  ValidationReport r = Cover(*classes_, "//@ ensures count == \\old(count) + d && pin == 7;",
                             obs, /*coverage_only=*/true);
  EXPECT_EQ(r.consistency.status, CheckStatus::kSkipped);
  ASSERT_EQ(r.coverage.verdicts.size(), 3u) << Text(r);
  EXPECT_EQ(r.coverage.verdicts[0], "admitted");
  EXPECT_THAT(r.coverage.verdicts[1], ::testing::StartsWith("rejected: "));
  EXPECT_THAT(r.coverage.verdicts[1], HasSubstr("count == \\old(count) + d"));
  EXPECT_THAT(r.coverage.verdicts[2], ::testing::StartsWith("undecided: "));
  EXPECT_THAT(r.coverage.verdicts[2], HasSubstr("redacted"));
  r = Cover(*classes_, "//@ ensures count >= 0;", obs, /*coverage_only=*/true);
  EXPECT_EQ(r.coverage.verdicts, (std::vector<std::string>{"admitted", "admitted", "admitted"}));
}

TEST_F(ValidatorTest, ReportsAsJson) {
  ValidationReport r = Check("inc", "//@ ensures \\result > x;");
  std::string json = FormatReportJson(r);
  for (const char* part : {"\"result\":\"0-\"", "\"consistency\":{\"status\":\"FAIL\"",
                           "\"source\":\"COUNTEREXAMPLE\"",
                           "\"coverage\":{\"status\":\"SKIPPED\""}) {
    EXPECT_THAT(json, HasSubstr(part));
  }
}

TEST_F(ValidatorTest, ReferenceFieldsAreNonNullUnlessDeclaredNullable) {
  // Assumed at entry: items.length needs no guard.
  ValidationReport r =
      Check("t.Buf#first", "//@ requires items.length > 0; ensures \\result == items[0];");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  // Checked at exit, constructors included: Buf() leaves name null.
  r = Check("t.Buf#<init>()V", "//@ ensures size == 0;");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  ASSERT_FALSE(r.consistency.diagnostics.empty());
  EXPECT_THAT(r.consistency.diagnostics[0].message, HasSubstr("implicit invariant this.name != null"));
  ASSERT_FALSE(r.consistency.counterexamples.empty());
  r = Check("t.Buf#<init>(I)V", "//@ requires n >= 0; ensures items.length == n && size == 0;");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  // A Java contract that declares the fields nullable lifts both.
  const char* nullable = R"java(
package t;
public class Buf {
  /*@ nullable @*/ int[] items;
  int size;
  /*@ nullable @*/ String name;
  //@ ensures size == 0;
  public Buf() {}
  //@ requires items.length > 0;
  //@ ensures \result == items[0];
  public int first() { return 0; }
}
)java";
  r = Check("t.Buf#<init>()V", nullable, 5, "Buf.java");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  r = Check("t.Buf#first", nullable, 5, "Buf.java");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.consistency.diagnostics[0].kind, Diagnostic::Kind::kWellDefinedness);
  // The witness of a requires ends where the JVM ends: first() with items
  // null throws (NullPointerException), it does not return.
  ASSERT_FALSE(r.consistency.counterexamples.empty());
  EXPECT_TRUE(r.consistency.counterexamples[0].outcome().has_thrown()) << Text(r);
}

TEST_F(ValidatorTest, AssertIsCheckedAndAssumeIsAssumed) {
  ValidationReport r = Check("t.Body#count", kBody, 5, "Body.java");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  // assert y > x fails for x <= 0, with the state at that line.
  r = Check("t.Body#twice", kBody, 5, "Body.java");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  ASSERT_FALSE(r.consistency.diagnostics.empty());
  const Diagnostic& d = r.consistency.diagnostics[0];
  EXPECT_EQ(d.kind, Diagnostic::Kind::kViolated);
  EXPECT_THAT(d.clause, HasSubstr("assert y > x"));
  EXPECT_EQ(d.span.line, 25);
  EXPECT_THAT(d.message, HasSubstr("does not hold at line 26"));
  ASSERT_EQ(d.counterexamples.size(), 1u);
  EXPECT_THAT(r.consistency.explanations[0], HasSubstr("y = "));
  // Without the assume, half(-3) == -1 breaks the ensures; with it, PASS,
  // and the report says what was assumed.
  r = Check("t.Body#half", kBody, 5, "Body.java");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  EXPECT_THAT(Text(r), HasSubstr("assumed: the executions where it is false are not checked"));
  // An assume is well-defined or diagnosed like any clause: a may be empty.
  r = Check("t.Body#guarded", kBody, 5, "Body.java");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_EQ(r.consistency.diagnostics[0].kind, Diagnostic::Kind::kWellDefinedness) << Text(r);
  EXPECT_THAT(r.consistency.diagnostics[0].clause, HasSubstr("assume a[0] > 0"));
  // An assert before a while loop is checked once, when the loop is
  // entered, not at each iteration (the loop head is its first code).
  r = Check("t.Body#countdown", kBody, 5, "Body.java");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
}

TEST_F(ValidatorTest, GhostVariablesFollowTheExecution) {
  // k counts the iterations (its set ends the loop body), big is set in
  // either branch: both asserts hold on every path.
  ValidationReport r = Check("t.Body#steps", kBody, 5, "Body.java");
  EXPECT_EQ(r.consistency.status, CheckStatus::kPass) << Text(r);
  // The same with a wrong count fails, with the values at the assert.
  std::string off = kBody;
  off.replace(off.find("assert k == n;"), 14, "assert k != n;");
  r = Check("t.Body#steps", off, 5, "Body.java");
  ASSERT_EQ(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_THAT(r.consistency.diagnostics[0].clause, HasSubstr("assert k != n"));
  // A set that cannot be lowered leaves k without a value (not a stale one).
  std::string stale = kBody;
  stale.replace(stale.find("set k = k + 1;"), 14, "set k = (\"a\" + 1L).length();");
  r = Check("t.Body#steps", stale, 5, "Body.java");
  EXPECT_EQ(r.consistency.status, CheckStatus::kUnknown) << Text(r);
  EXPECT_THAT(Text(r), HasSubstr("ghost variable 'k' has no value here"));
  // A set at the end of an if without else has no place of its own (the
  // next instruction is the join): no ghost value is trusted, and the
  // assert over it is not decided.
  r = Check("t.Body#late", kBody, 5, "Body.java");
  EXPECT_NE(r.consistency.status, CheckStatus::kPass) << Text(r);
  EXPECT_NE(r.consistency.status, CheckStatus::kFail) << Text(r);
  EXPECT_THAT(Text(r), HasSubstr("set g = 1; no place in the bytecode"));
}

}  // namespace
}  // namespace tracespec::check
