// Instruction families: for each, a program whose assertions state Java's
// exact semantics (must be VERIFICATION SUCCESSFUL: a proof) and a variant
// with a planted mistake (must fail, and its counterexample must replay on
// the JVM). Also the UNKNOWN answers: bound reached, unsupported library
// call, lambda, missing class.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gtest/gtest.h"
#include "tests/validator/symex/java_suite.h"

namespace tracespec::symex {
namespace {

const char* kSource = R"java(
package fam;

import org.sosy_lab.sv_benchmarks.Verifier;

class IntArith { public static void main(String[] a) {
  int x = Verifier.nondetInt(); int y = Verifier.nondetInt();
  assert x + y == y + x && x - y == -(y - x) && x * -1 == -x;
  assert Integer.MAX_VALUE + 1 == Integer.MIN_VALUE;
  if (y > 0 && y < 10 && x > -100 && x < 100) assert (x / y) * y + x % y == x;
  long l = Verifier.nondetLong();
  assert l + 1 - 1 == l && (l ^ l) == 0L;
  assert (-x == x) == (x == 0 || x == Integer.MIN_VALUE);
  int i = x; i += 7; i++; i -= 8; assert i == x;
} }
class IntArithBad { public static void main(String[] a) {
  int x = Verifier.nondetInt();
  assert x * x >= 0;
} }
class Bits { public static void main(String[] a) {
  int x = Verifier.nondetInt(); int s = Verifier.nondetInt();
  assert (x << s) == (x << (s & 31)) && (x >>> 32) == x;
  assert (x >> 31) == (x < 0 ? -1 : 0);
  assert (x & ~x) == 0 && (x | ~x) == -1;
  long l = Verifier.nondetLong();
  assert (l >>> 63) == (l < 0 ? 1L : 0L) && (l << 64) == l;
} }
class BitsBad { public static void main(String[] a) {
  int x = Verifier.nondetInt();
  assert (x >> 1) == x / 2;
} }
class Conversions { public static void main(String[] a) {
  int x = Verifier.nondetInt();
  assert (byte) x == (byte) (x & 0xFF) && (short) x == (short) (x & 0xFFFF);
  assert (char) x == (x & 0xFFFF) && (long) x == x && (int) (long) x == x;
  double d = Verifier.nondetDouble();
  if (d != d) assert (int) d == 0 && (long) d == 0L;
  if (d >= 1e10) assert (int) d == Integer.MAX_VALUE;
  float f = (float) 16777217; assert f == 16777216.0f;
  assert (int) 3.99 == 3 && (int) -3.99 == -3 && (long) -0.5 == 0L;
} }
class ConversionsBad { public static void main(String[] a) {
  double d = Verifier.nondetDouble();
  assert (long) (float) d == (long) d || d != d;
} }
class Compares { public static void main(String[] a) {
  float f = Verifier.nondetFloat(); float g = Verifier.nondetFloat();
  if (f < g) assert !(f >= g);
  if (f != f) assert !(f < g) && !(f > g) && !(f == g);
  assert (0.0f == -0.0f) && Float.compare(0.0f, -0.0f) > 0;
  long p = Verifier.nondetLong(); long q = Verifier.nondetLong();
  assert (p < q) == (Long.compare(p, q) < 0);
  double nan = 0.0 / 0.0; assert !(nan <= 1.0) && !(nan >= 1.0);
} }
class ComparesBad { public static void main(String[] a) {
  double d = Verifier.nondetDouble();
  assert d < 1.0 || d >= 1.0;
} }
class Switches { public static void main(String[] a) {
  int x = Verifier.nondetInt(); int r;
  switch (x) { case -1: r = 1; break; case 0: r = 2; break; case 1: r = 3; break; default: r = 0; }
  assert (x >= -1 && x <= 1) ? r == x + 2 : r == 0;
  switch (x) { case 100: r = 7; break; case -100000: r = 8; break; default: r = 9; }
  assert r == (x == 100 ? 7 : x == -100000 ? 8 : 9);
} }
class SwitchesBad { public static void main(String[] a) {
  int x = Verifier.nondetInt(); int r = 0;
  switch (x) { case 5: r = 1; case 6: r = 2; break; default: r = 3; }
  assert r != 2 || x == 6;
} }
class StackOps {
  long counter; int small;
  public static void main(String[] a) {
    long[] ls = new long[2]; int[] is = new int[2];
    long v = ls[0] = ls[1] = 5L;
    assert v == 5L && ls[0] == 5L && ls[1] == 5L;
    StackOps s = new StackOps();
    long before = s.counter++;
    int b2 = s.small++;
    assert before == 0L && s.counter == 1L && b2 == 0 && s.small == 1;
    double[] ds = new double[1]; double dd = ds[0] += 2.5; assert dd == 2.5;
    is[1] = is[0]++; assert is[0] == 1 && is[1] == 0;
  }
}
class Objects {
  static int created; int id; Objects next;
  Objects() { id = ++created; }
  public static void main(String[] a) {
    Objects x = new Objects(); Objects y = new Objects(); x.next = y;
    assert created == 2 && x.id == 1 && x.next.id == 2 && y.next == null && x != y;
  }
}
class Dispatch {
  interface Shape { int area(); default int twice() { return 2 * area(); } }
  static class Sq implements Shape { int s = 3; public int area() { return s * s; } }
  static class Rect extends Sq { public int area() { return s * 2; } public int twice() { return 0; } }
  private int secret() { return 41; }
  static int over(int i) { return 1; }
  static int over(long l) { return 2; }
  public static void main(String[] a) {
    Shape s = Verifier.nondetBoolean() ? new Sq() : new Rect();
    assert s instanceof Rect ? s.twice() == 0 : s.twice() == 18;
    assert new Dispatch().secret() + 1 == 42;
    assert over(1) == 1 && over(1L) == 2;
  }
}
class DispatchBad {
  static class A { int v() { return 1; } }
  static class B extends A { int v() { return 2; } }
  public static void main(String[] a) {
    A x = Verifier.nondetBoolean() ? new A() : new B();
    assert x.v() == 1;
  }
}
class Exceptions {
  static int depth(int n) { if (n == 0) throw new IllegalStateException(); return depth(n - 1); }
  public static void main(String[] a) {
    int log = 0;
    try { depth(2); } catch (IllegalStateException e) { log += 1; } finally { log += 10; }
    try { try { throw new ArithmeticException(); } finally { log += 100; } }
    catch (RuntimeException e) { log += 1000; }
    assert log == 1111;
    try { Object o = null; o.hashCode(); } catch (NullPointerException e) { log = -1; }
    assert log == -1;
  }
}
class Arrays2 { public static void main(String[] a) {
  int[][] m = new int[2][3]; m[1][2] = 7;
  assert m.length == 2 && m[1].length == 3 && m[1][2] == 7 && m[0][0] == 0;
  Object[] os = new String[1]; assert os instanceof String[];
  long[][][] cube = new long[2][2][2]; cube[1][0][1] = -1L; assert cube[1][0][1] == -1L;
  boolean[] flags = new boolean[2]; flags[1] = true; assert flags[1] && !flags[0];
  byte[] bs = new byte[1]; bs[0] = (byte) 200; assert bs[0] == -56;
  char[] cs = {'a', 'b'}; assert cs[1] - cs[0] == 1;
} }
class Recursion {
  static int sum(int n) { return n == 0 ? 0 : n + sum(n - 1); }
  public static void main(String[] a) {
    int n = Verifier.nondetInt(); Verifier.assume(n >= 0 && n <= 3);
    assert sum(n) == n * (n + 1) / 2;
  }
}
class Unbounded { public static void main(String[] a) {
  // Genuinely false (y wraps after 2^31 turns), so neither a bounded run nor
  // the induction step can settle it.
  int x = Verifier.nondetInt(); int y = 0;
  while (x != 0) { x = x - 1; y = y + 1; } // LOOP Unbounded
  assert y >= 0;
} }
class UsesCharacter { public static void main(String[] a) {
  char c = (char) Verifier.nondetInt();
  assert Character.toLowerCase(c) != 'A';
} }
class UsesLambda { public static void main(String[] a) {
  Runnable r = () -> { };
  r.run();
} }
class UsesMissing { public static void main(String[] a) {
  if (Verifier.nondetInt() == 5) Gone.touch();
} }
class Gone { static void touch() { } }
)java";

class FamiliesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    suite_ = new JavaSuite(std::map<std::string, std::string>{{"fam/Cases.java", kSource}});
  }
  static void TearDownTestSuite() { delete suite_; }

  // Replays a harness counterexample on the JVM and returns its stderr.
  static std::string Replay(const VerifyResult& r, const std::string& cls) {
    std::string dir = suite_->dir().path() + "/replay_" + cls;
    EXPECT_TRUE(MakeDirs(dir).ok());
    EXPECT_TRUE(WriteFileAtomic(dir + "/Verifier.java", r.driver).ok());
    auto javac = RunSubprocess({"javac", "-d", dir, dir + "/Verifier.java"});
    EXPECT_TRUE(javac.ok() && javac->Succeeded());
    auto java = RunSubprocess({"java", "-ea", "-cp", dir + ":" + suite_->classes(), cls});
    return java.ok() ? java->stderr_data : "";
  }

  static JavaSuite* suite_;
};

JavaSuite* FamiliesTest::suite_ = nullptr;

TEST_F(FamiliesTest, ProofsOfJavaSemantics) {
  for (const char* cls : {"IntArith", "Bits", "Conversions", "Compares", "Switches", "StackOps",
                          "Objects", "Dispatch", "Exceptions", "Arrays2", "Recursion"}) {
    VerifyResult r = suite_->Run(absl::StrCat("fam.", cls));
    EXPECT_EQ(r.verdict, Verdict::kSuccessful) << cls << "\n" << FormatVerifyText(r);
  }
}

TEST_F(FamiliesTest, PlantedMistakesFailAndReplay) {
  for (const char* cls : {"IntArithBad", "BitsBad", "ConversionsBad", "ComparesBad",
                          "SwitchesBad", "DispatchBad"}) {
    std::string name = absl::StrCat("fam.", cls);
    VerifyResult r = suite_->Run(name);
    ASSERT_EQ(r.verdict, Verdict::kFailed) << cls << "\n" << FormatVerifyText(r);
    EXPECT_EQ(r.exception_class, "java.lang.AssertionError");
    EXPECT_FALSE(r.inputs.empty()) << cls;
    EXPECT_FALSE(r.path.empty()) << cls;
    std::string err = Replay(r, name);
    EXPECT_TRUE(absl::StrContains(err, "Exception in thread \"main\" java.lang.AssertionError"))
        << cls << ": " << err;
    EXPECT_TRUE(absl::StrContains(err, absl::StrCat("Cases.java:", r.failure->line))) << err;
  }
}

TEST_F(FamiliesTest, BoundReachedIsUnknownNotAViolation) {
  VerifyResult r = suite_->Run("fam.Unbounded", Property::kAssert, "", /*max_unwind=*/8);
  EXPECT_EQ(r.verdict, Verdict::kUnknown);
  EXPECT_EQ(r.unknown_reason, UnknownReason::kBound);
  EXPECT_TRUE(absl::StrContains(
      r.reason, absl::StrCat("Cases.java:", suite_->LineOf("fam/Cases.java", "LOOP Unbounded"))))
      << r.reason;
  EXPECT_EQ(r.unwind, 8);
  // With a time limit instead of a bound the answer is the same.
  VerifyResult timed = suite_->Run("fam.Unbounded", Property::kAssert, "", 0, /*timeout=*/2);
  EXPECT_EQ(timed.verdict, Verdict::kUnknown);
}

TEST_F(FamiliesTest, UnsupportedConstructsAreNamed) {
  VerifyResult s = suite_->Run("fam.UsesCharacter");
  EXPECT_EQ(s.verdict, Verdict::kUnknown);
  EXPECT_EQ(s.unknown_reason, UnknownReason::kUnsupported);
  EXPECT_TRUE(absl::StrContains(s.reason, "java.lang.Character.toLowerCase")) << s.reason;
  VerifyResult l = suite_->Run("fam.UsesLambda");
  EXPECT_EQ(l.unknown_reason, UnknownReason::kUnsupported);
  EXPECT_TRUE(absl::StrContains(l.reason, "invokedynamic")) << l.reason;
  ASSERT_TRUE(RemoveAll(suite_->classes() + "/fam/Gone.class").ok());
  VerifyResult m = suite_->Run("fam.UsesMissing");
  EXPECT_EQ(m.unknown_reason, UnknownReason::kUnsupported);
  EXPECT_TRUE(absl::StrContains(m.reason, "fam.Gone is not on the class path")) << m.reason;
}

}  // namespace
}  // namespace tracespec::symex
