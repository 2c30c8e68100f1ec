// Every implicit runtime exception the JVM raises is raised where the JVM
// raises it: the verdict is FAILED (no-runtime-exception), with the right
// class and line, and the counterexample replays on the real JVM.
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gtest/gtest.h"
#include "tests/validator/symex/java_suite.h"

namespace tracespec::symex {
namespace {

const char* kSource = R"java(
package rt;

import org.sosy_lab.sv_benchmarks.Verifier;

class Box { int v; Box next; int get() { return v; } }

class NpeGetfield { public static void main(String[] a) {
  Box b = Verifier.nondetBoolean() ? new Box() : null;
  System.out.println(b.v); // RAISE NpeGetfield
} }
class NpePutfield { public static void main(String[] a) {
  Box b = new Box(); if (Verifier.nondetInt() == 3) b = b.next;
  b.v = 1; // RAISE NpePutfield
} }
class NpeInvoke { public static void main(String[] a) {
  Box b = Verifier.nondetBoolean() ? null : new Box();
  b.get(); // RAISE NpeInvoke
} }
class NpeArrayLength { public static void main(String[] a) {
  int[] xs = Verifier.nondetBoolean() ? null : new int[2];
  System.out.println(xs.length); // RAISE NpeArrayLength
} }
class NpeArrayLoad { public static void main(String[] a) {
  long[] xs = Verifier.nondetBoolean() ? null : new long[2];
  System.out.println(xs[0]); // RAISE NpeArrayLoad
} }
class NpeAthrow { public static void main(String[] a) {
  RuntimeException e = Verifier.nondetBoolean() ? null : new IllegalStateException();
  if (Verifier.nondetBoolean()) throw e; // RAISE NpeAthrow
} }
class NpeMonitor { public static void main(String[] a) {
  Object lock = Verifier.nondetBoolean() ? null : new Object();
  synchronized (lock) { System.out.println(); } // RAISE NpeMonitor
} }
class AioobeLoad { public static void main(String[] a) {
  char[] cs = new char[3]; int i = Verifier.nondetInt();
  System.out.println(cs[i]); // RAISE AioobeLoad
} }
class AioobeStoreNegative { public static void main(String[] a) {
  double[] ds = new double[3]; int i = Verifier.nondetInt(); Verifier.assume(i < 3);
  ds[i] = 1.0; // RAISE AioobeStoreNegative
} }
class NegativeSize { public static void main(String[] a) {
  int n = Verifier.nondetInt();
  Object[] os = new Object[n]; // RAISE NegativeSize
} }
class NegativeSizeMulti { public static void main(String[] a) {
  int n = Verifier.nondetInt(); Verifier.assume(n < 5);
  int[][] m = new int[2][n]; // RAISE NegativeSizeMulti
} }
class DivZero { public static void main(String[] a) {
  int d = Verifier.nondetInt();
  System.out.println(10 / d); // RAISE DivZero
} }
class RemZeroLong { public static void main(String[] a) {
  long d = Verifier.nondetLong();
  System.out.println(10L % d); // RAISE RemZeroLong
} }
class CastFails { public static void main(String[] a) {
  Object o = Verifier.nondetBoolean() ? (Object) new Box() : (Object) "text";
  Box b = (Box) o; // RAISE CastFails
} }
class StoreFails { public static void main(String[] a) {
  Object[] os = Verifier.nondetBoolean() ? new Box[1] : new Object[1];
  os[0] = "text"; // RAISE StoreFails
} }
class Clean { public static void main(String[] a) {
  Box b = new Box(); int[] xs = new int[2]; int i = Verifier.nondetInt();
  if (i >= 0 && i < xs.length) xs[i] = 10 / (i + 1);
  Object o = b; if (o instanceof Box) ((Box) o).v = xs.length;
} }
)java";

struct Expectation {
  const char* cls;
  const char* exception;
};

void PrintTo(const Expectation& e, std::ostream* out) { *out << e.cls; }

const Expectation kCases[] = {
    {"NpeGetfield", "java.lang.NullPointerException"},
    {"NpePutfield", "java.lang.NullPointerException"},
    {"NpeInvoke", "java.lang.NullPointerException"},
    {"NpeArrayLength", "java.lang.NullPointerException"},
    {"NpeArrayLoad", "java.lang.NullPointerException"},
    {"NpeAthrow", "java.lang.NullPointerException"},
    {"NpeMonitor", "java.lang.NullPointerException"},
    {"AioobeLoad", "java.lang.ArrayIndexOutOfBoundsException"},
    {"AioobeStoreNegative", "java.lang.ArrayIndexOutOfBoundsException"},
    {"NegativeSize", "java.lang.NegativeArraySizeException"},
    {"NegativeSizeMulti", "java.lang.NegativeArraySizeException"},
    {"DivZero", "java.lang.ArithmeticException"},
    {"RemZeroLong", "java.lang.ArithmeticException"},
    {"CastFails", "java.lang.ClassCastException"},
    {"StoreFails", "java.lang.ArrayStoreException"},
};

class RuntimeExceptionsTest : public ::testing::TestWithParam<Expectation> {
 protected:
  static void SetUpTestSuite() {
    suite_ = new JavaSuite(std::map<std::string, std::string>{{"rt/Cases.java", kSource}});
  }
  static void TearDownTestSuite() { delete suite_; }
  static JavaSuite* suite_;
};

JavaSuite* RuntimeExceptionsTest::suite_ = nullptr;

TEST_P(RuntimeExceptionsTest, RaisedWhereTheJvmRaisesIt) {
  const Expectation& e = GetParam();
  VerifyResult r = suite_->Run(absl::StrCat("rt.", e.cls), Property::kNoRuntimeException);
  ASSERT_EQ(r.verdict, Verdict::kFailed) << FormatVerifyText(r);
  EXPECT_EQ(r.exception_class, e.exception);
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->line, suite_->LineOf("rt/Cases.java", absl::StrCat("RAISE ", e.cls)));
  EXPECT_EQ(r.failure->class_name, absl::StrCat("rt.", e.cls));
  // The same run is not an assertion failure.
  EXPECT_EQ(suite_->Run(absl::StrCat("rt.", e.cls)).verdict, Verdict::kSuccessful);
  // Replay: the stand-in Verifier makes the JVM throw the same exception.
  std::string replay = suite_->dir().path() + "/replay_" + e.cls;
  ASSERT_TRUE(MakeDirs(replay).ok());
  ASSERT_TRUE(WriteFileAtomic(replay + "/Verifier.java", r.driver).ok());
  auto javac = RunSubprocess({"javac", "-d", replay, replay + "/Verifier.java"});
  ASSERT_TRUE(javac.ok() && javac->Succeeded());
  auto java = RunSubprocess({"java", "-cp", replay + ":" + suite_->classes(),
                             absl::StrCat("rt.", e.cls)});
  ASSERT_TRUE(java.ok());
  EXPECT_TRUE(absl::StrContains(java->stderr_data,
                                absl::StrCat("Exception in thread \"main\" ", e.exception)))
      << java->stderr_data;
  EXPECT_TRUE(absl::StrContains(java->stderr_data,
                                absl::StrCat("(Cases.java:", r.failure->line, ")")))
      << java->stderr_data;
}

INSTANTIATE_TEST_SUITE_P(All, RuntimeExceptionsTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.cls); });

TEST_F(RuntimeExceptionsTest, GuardedCodeRaisesNothing) {
  VerifyResult r = suite_->Run("rt.Clean", Property::kNoRuntimeException);
  EXPECT_EQ(r.verdict, Verdict::kSuccessful) << FormatVerifyText(r);
}

}  // namespace
}  // namespace tracespec::symex
