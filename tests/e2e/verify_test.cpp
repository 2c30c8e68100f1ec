// End-to-end tests of `tracespec verify`: a bug planted in a correct program
// flips the verdict and its counterexample replays on the real JVM; bad
// input gives clear errors and the documented exit statuses.
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

const char* kThermostat = R"java(
package plant;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Thermostat {
  static final int MIN = 5;
  static final int MAX = 30;
  private int target = 20;
  private boolean heating;

  void adjust(int delta) {
    int next = target + delta;
    if (next < MIN) next = MIN;
    if (next > MAX) next = MAX;
    target = next;
  }

  void sense(int temperature) {
    heating = temperature < target;
  }

  public static void main(String[] args) {
    Thermostat t = new Thermostat();
    for (int step = 0; step < 4; step++) {
      int delta = Verifier.nondetInt();
      Verifier.assume(delta > -100 && delta < 100);
      t.adjust(delta);
      t.sense(Verifier.nondetInt());
      assert t.target >= MIN && t.target <= MAX; // INVARIANT
    }
  }
}
)java";

class VerifyE2eTest : public ::testing::Test {
 protected:
  std::string Compile(const std::string& source) {
    return testing::CompileJava(dir_, {{"plant/Thermostat.java", source}}, {"-g"},
                                TRACESPEC_VERIFIER_CLASSES_DIR);
  }
  SubprocessResult Verify(const std::string& classes, std::vector<std::string> extra) {
    std::vector<std::string> args = {"verify", "--classpath",
                                     classes + ":" + TRACESPEC_VERIFIER_CLASSES_DIR, "--class",
                                     "plant.Thermostat"};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunTracespec(args);
  }
  testing::TempDir dir_;
};

TEST_F(VerifyE2eTest, PlantedBugFlipsTheVerdictAndReplays) {
  std::string correct = Compile(kThermostat);
  ASSERT_FALSE(correct.empty());
  SubprocessResult ok = Verify(correct, {});
  EXPECT_EQ(ok.exit_code, 0) << ok.stdout_data << ok.stderr_data;
  EXPECT_TRUE(absl::StartsWith(ok.stdout_data, "VERIFICATION SUCCESSFUL"));

  // The planted bug: the upper clamp is lost.
  std::string buggy_source =
      absl::StrReplaceAll(kThermostat, {{"if (next > MAX) next = MAX;", "if (next > MAX) next--;"}});
  ASSERT_NE(buggy_source, kThermostat);
  testing::TempDir other;
  std::string buggy = testing::CompileJava(other, {{"plant/Thermostat.java", buggy_source}},
                                           {"-g"}, TRACESPEC_VERIFIER_CLASSES_DIR);
  std::string driver = other.path() + "/replay/Verifier.java";
  SubprocessResult bad = Verify(buggy, {"--emit-driver", driver});
  EXPECT_EQ(bad.exit_code, 10) << bad.stdout_data << bad.stderr_data;
  EXPECT_TRUE(absl::StartsWith(bad.stdout_data, "VERIFICATION FAILED"));
  int line = 0;
  {
    int n = 1;
    for (char ch : buggy_source.substr(0, buggy_source.find("// INVARIANT"))) n += ch == '\n';
    line = n;
  }
  EXPECT_TRUE(absl::StrContains(bad.stdout_data, absl::StrCat("Thermostat.java:", line, ", bytecode")))
      << bad.stdout_data;
  auto javac = RunSubprocess({"javac", "-d", other.path() + "/replay", driver});
  ASSERT_TRUE(javac.ok() && javac->Succeeded()) << (javac.ok() ? javac->stderr_data : "");
  auto java = RunSubprocess(
      {"java", "-ea", "-cp", other.path() + "/replay:" + buggy, "plant.Thermostat"});
  ASSERT_TRUE(java.ok());
  EXPECT_TRUE(absl::StrContains(java->stderr_data,
                                "Exception in thread \"main\" java.lang.AssertionError"))
      << java->stderr_data;
  EXPECT_TRUE(absl::StrContains(java->stderr_data, absl::StrCat("Thermostat.java:", line)))
      << java->stderr_data;
}

TEST_F(VerifyE2eTest, MethodModeJsonCarriesAnObservation) {
  std::string classes = Compile(kThermostat);
  SubprocessResult r = Verify(classes, {"--method", "adjust", "--json"});
  // adjust() has no assertion: nothing to violate.
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_TRUE(absl::StrContains(r.stdout_data, "\"verdict\":\"SUCCESSFUL\""));
  std::string source = absl::StrReplaceAll(
      kThermostat, {{"    target = next;\n", "    target = next;\n    assert target != 17;\n"}});
  testing::TempDir other;
  std::string mutated = testing::CompileJava(other, {{"plant/Thermostat.java", source}}, {"-g"},
                                             TRACESPEC_VERIFIER_CLASSES_DIR);
  SubprocessResult f = testing::RunTracespec(
      {"verify", "--classpath", mutated + ":" + TRACESPEC_VERIFIER_CLASSES_DIR, "--class",
       "plant.Thermostat", "--method", "adjust", "--json"});
  EXPECT_EQ(f.exit_code, 10) << f.stdout_data << f.stderr_data;
  EXPECT_TRUE(absl::StrContains(f.stdout_data, "\"observation\":{"));
  EXPECT_TRUE(absl::StrContains(f.stdout_data, "\"source\":\"COUNTEREXAMPLE\""));
  EXPECT_TRUE(absl::StrContains(f.stdout_data, "\"class_name\":\"plant.Thermostat\""));
}

// Loops that are wrong only from index 6 on: with input arrays cut at the
// default length 4 they cannot fail, and the verdict must not call that
// complete. weigh() is proved by unwinding every loop (the induction step
// fails: from an arbitrary state w may be 42), sum() by induction.
const char* kPrefix = R"java(
package plant;

public class Prefix {
  static int weigh(int[] a) {
    int w = 0;
    for (int i = 0; i < a.length; i++) {
      w += 7;
      assert w != 49; // BUG: fails at index 6
    }
    return w;
  }

  static int sum(int[] a) {
    int s = 0;
    for (int i = 0; i < a.length; i++) {
      assert i < 6; // BUG: fails at index 6
      s += a[i];
    }
    return s;
  }
}
)java";

TEST_F(VerifyE2eTest, SuccessOnCutArraysIsWithinBoundsNotComplete) {
  std::string classes =
      testing::CompileJava(dir_, {{"plant/Prefix.java", kPrefix}}, {"-g"},
                           TRACESPEC_VERIFIER_CLASSES_DIR);
  ASSERT_FALSE(classes.empty());
  auto verify = [&](const std::string& method, std::vector<std::string> extra) {
    std::vector<std::string> args = {"verify", "--classpath",
                                     classes + ":" + TRACESPEC_VERIFIER_CLASSES_DIR, "--class",
                                     "plant.Prefix", "--method", method};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunTracespec(args);
  };
  SubprocessResult text = verify("weigh", {});
  EXPECT_EQ(text.exit_code, 0) << text.stdout_data << text.stderr_data;
  EXPECT_TRUE(absl::StartsWith(text.stdout_data, "VERIFICATION SUCCESSFUL")) << text.stdout_data;
  EXPECT_FALSE(absl::StrContains(text.stdout_data, "complete")) << text.stdout_data;
  EXPECT_TRUE(absl::StrContains(text.stdout_data,
                                "bounds: within bounds: input arrays of at most 4 elements "
                                "(every loop and recursion fits in k="))
      << text.stdout_data;
  SubprocessResult json = verify("weigh", {"--json"});
  EXPECT_EQ(json.exit_code, 0) << json.stdout_data << json.stderr_data;
  EXPECT_TRUE(absl::StrContains(json.stdout_data, "\"complete\":false")) << json.stdout_data;
  EXPECT_TRUE(absl::StrContains(json.stdout_data, "\"induction\":false")) << json.stdout_data;
  EXPECT_TRUE(absl::StrContains(json.stdout_data,
                                "\"cuts\":[\"input arrays of at most 4 elements\"]"))
      << json.stdout_data;
  // Proved by induction, the loops are unbounded but the arrays are not.
  SubprocessResult induction = verify("sum", {});
  EXPECT_EQ(induction.exit_code, 0) << induction.stdout_data << induction.stderr_data;
  EXPECT_TRUE(absl::StrContains(induction.stdout_data, "bounds: proved by induction ("))
      << induction.stdout_data;
  EXPECT_TRUE(absl::StrContains(induction.stdout_data,
                                "), within bounds: input arrays of at most 4 elements, max-array 4"))
      << induction.stdout_data;
  // The cut hid real bugs: arrays of 8 elements reach them.
  for (const char* method : {"weigh", "sum"}) {
    SubprocessResult longer = verify(method, {"--max-array", "8"});
    EXPECT_EQ(longer.exit_code, 10) << method << "\n" << longer.stdout_data << longer.stderr_data;
    EXPECT_TRUE(absl::StartsWith(longer.stdout_data, "VERIFICATION FAILED")) << longer.stdout_data;
  }
}

TEST_F(VerifyE2eTest, SuccessWithoutInputArraysStaysComplete) {
  std::string classes = Compile(kThermostat);
  // The SV-COMP harness reads only nondet ints.
  SubprocessResult harness = Verify(classes, {});
  EXPECT_EQ(harness.exit_code, 0) << harness.stdout_data << harness.stderr_data;
  EXPECT_TRUE(absl::StrContains(harness.stdout_data, "bounds: complete (every loop and recursion"))
      << harness.stdout_data;
  // A method whose inputs are an int and the receiver's fields.
  SubprocessResult method = Verify(classes, {"--method", "adjust", "--json"});
  EXPECT_EQ(method.exit_code, 0) << method.stdout_data << method.stderr_data;
  EXPECT_TRUE(absl::StrContains(method.stdout_data, "\"complete\":true,")) << method.stdout_data;
  EXPECT_TRUE(absl::StrContains(method.stdout_data, "\"cuts\":[]")) << method.stdout_data;
}

TEST_F(VerifyE2eTest, BadInputIsAClearError) {
  std::string classes = Compile(kThermostat);
  // A truncated class file.
  std::string path = classes + "/plant/Thermostat.class";
  auto bytes = ReadFile(path);
  ASSERT_TRUE(bytes.ok());
  ASSERT_TRUE(WriteFileAtomic(path, bytes->substr(0, bytes->size() / 2)).ok());
  SubprocessResult truncated = Verify(classes, {});
  EXPECT_EQ(truncated.exit_code, 3);
  EXPECT_TRUE(absl::StrContains(truncated.stderr_data, "Thermostat.class: byte "))
      << truncated.stderr_data;
  ASSERT_TRUE(WriteFileAtomic(path, *bytes).ok());
  SubprocessResult missing = testing::RunTracespec(
      {"verify", "--classpath", classes, "--class", "plant.Nothing"});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_TRUE(absl::StrContains(missing.stderr_data, "class plant.Nothing not found"));
  SubprocessResult method = Verify(classes, {"--method", "nosuch"});
  EXPECT_EQ(method.exit_code, 3);
  EXPECT_TRUE(absl::StrContains(method.stderr_data, "has no method nosuch"));
  // Bounds out of range are bad usage, like any malformed flag.
  SubprocessResult unwind = Verify(classes, {"--unwind", "0"});
  EXPECT_EQ(unwind.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(unwind.stderr_data, "--unwind")) << unwind.stderr_data;
  SubprocessResult array = Verify(classes, {"--max-array", "-1"});
  EXPECT_EQ(array.exit_code, 2);
  SubprocessResult cp = testing::RunTracespec(
      {"verify", "--classpath", dir_.path() + "/none.jar", "--class", "X"});
  EXPECT_EQ(cp.exit_code, 3);
  EXPECT_TRUE(absl::StrContains(cp.stderr_data, "--classpath " + dir_.path() +
                                                    "/none.jar: no such file or directory"))
      << cp.stderr_data;
  SubprocessResult property = Verify(classes, {"--property", "liveness"});
  EXPECT_EQ(property.exit_code, 2);
}

TEST_F(VerifyE2eTest, HelpDocumentsTheExitStatuses) {
  SubprocessResult help = testing::RunTracespec({"verify", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(absl::StrContains(help.stdout_data, "0 success (VERIFICATION SUCCESSFUL)"));
  EXPECT_TRUE(
      absl::StrContains(help.stdout_data, "10 a check found a violation (VERIFICATION FAILED)"));
  EXPECT_TRUE(absl::StrContains(help.stdout_data, "11 a check could not decide (UNKNOWN)"));
  EXPECT_TRUE(absl::StrContains(help.stdout_data, "--emit-driver"));
}

}  // namespace
}  // namespace tracespec
