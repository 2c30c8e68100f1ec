// Excluded tests run on their own (issue 24, item 3), end to end: real
// javac, real JVM, real JUnit 5, real probe. A test excluded because it
// handles a password leaves a recovery code in a static field; in one JVM
// the next, innocent test's observations carry it. With an excluded test,
// observe runs the others again in a JVM in which the excluded test never
// ran and takes their observations from there: the code appears in no
// observation of a test that may leave, while the excluded test's
// observations stay, flagged. Nothing excluded: no extra run.
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/e2e/observed.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kCode[] = "RC-7781-QX";

constexpr char kVault[] = R"(package ex;
public class Vault {
  public static String lastCode = "none";
  public static String describe(String who) { return who + " sees " + lastCode; }
}
)";

// JUnit's default method order is deterministic but not by name: the
// order is fixed by name here, so the excluded test runs first.
constexpr char kVaultTest[] = R"(package ex;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
@TestMethodOrder(MethodOrderer.MethodName.class)
class VaultTest {
  @Test void aResetsPassword() {
    String password = "hunter22";
    Vault.lastCode = "RC-7781-QX";
    Vault.describe("admin");
  }
  @Test void bDescribes() { Vault.describe("ann"); }
  @ParameterizedTest @ValueSource(strings = {"bob"}) void cDescribesFor(String who) {
    Vault.describe(who);
  }
  @Test void dNeedsTheCode() { assertEquals(10, Vault.lastCode.length()); }
}
)";

using testing::Observed;

class ObserveExclusionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    classes_ = testing::CompileJava(
        dir_, {{"ex/Vault.java", kVault}, {"ex/VaultTest.java", kVaultTest}}, {"-g"},
        testing::JunitJar());
  }

  Observed Observe(const std::string& name, const std::vector<std::string>& extra) {
    std::string out = dir_.path() + "/" + name;
    std::vector<std::string> args = {"observe", "--classpath", classes_, "--tests", "ex.VaultTest",
                                     "--method", "ex.Vault#describe", "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunObserve(args, out);
  }

  std::string Source() const { return dir_.path() + "/src"; }

  testing::TempDir dir_;
  std::string classes_;
};

// The JSON lines of observations that may leave (not flagged excluded).
std::vector<std::string> LeavingLines(const std::string& jsonl) {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(jsonl, '\n', absl::SkipEmpty())) {
    if (!absl::StrContains(line, "\"excluded\":true")) out.emplace_back(line);
  }
  return out;
}

std::vector<std::string> TestsOf(const Observed& r, bool excluded) {
  std::vector<std::string> out;
  for (const v1::Observation& o : r.observations) {
    if (o.excluded() == excluded) out.push_back(o.test_id());
  }
  return out;
}

TEST_F(ObserveExclusionTest, ExcludedTestsDataReachesNoObservationThatMayLeave) {
  ASSERT_FALSE(classes_.empty());
  // Without the test sources nothing is excluded: all tests share one JVM
  // and the innocent tests' observations carry the code (the shared
  // fixture). No isolation run happens: nothing to isolate, no cost.
  Observed plain = Observe("plain", {});
  ASSERT_EQ(plain.result.exit_code, 0) << plain.Output();
  EXPECT_EQ(plain.summary.tests_excluded(), 0);
  EXPECT_FALSE(plain.summary.isolation_run());
  EXPECT_EQ(plain.summary.isolation_runs(), 0);
  EXPECT_THAT(plain.result.stdout_data, Not(HasSubstr("isolation run")));
  std::vector<std::string> carried;
  for (const v1::Observation& o : plain.observations) {
    if (absl::StrContains(o.outcome().returned().string_value(), kCode)) {
      carried.push_back(o.test_id());
    }
  }
  EXPECT_THAT(carried, ElementsAre("ex.VaultTest#aResetsPassword", "ex.VaultTest#bDescribes",
                                   "ex.VaultTest#cDescribesFor"));

  // With them, aResetsPassword is excluded (it mentions "password").
  Observed o = Observe("isolated", {"--tests-src", Source()});
  ASSERT_EQ(o.result.exit_code, 0) << o.Output();
  EXPECT_EQ(o.summary.tests_excluded(), 1);
  for (const std::string& line : LeavingLines(o.jsonl)) {
    EXPECT_THAT(line, Not(HasSubstr(kCode)));
  }
  // The innocent tests ran (a parameterized one too) and were recorded.
  EXPECT_THAT(TestsOf(o, false),
              ElementsAre("ex.VaultTest#bDescribes", "ex.VaultTest#cDescribesFor"));
  for (const v1::Observation& obs : o.observations) {
    if (!obs.excluded()) EXPECT_THAT(obs.outcome().returned().string_value(), HasSubstr("none"));
  }
  // The excluded test's observation stays, flagged, as run A recorded it.
  ASSERT_THAT(TestsOf(o, true), ElementsAre("ex.VaultTest#aResetsPassword"));
  for (const v1::Observation& obs : o.observations) {
    if (!obs.excluded()) continue;
    EXPECT_EQ(obs.outcome().returned().string_value(), "admin sees RC-7781-QX");
    EXPECT_THAT(obs.excluded_reason(), HasSubstr("password"));
  }
  // Sequence numbers stay unique.
  std::vector<uint64_t> sequences;
  for (const v1::Observation& obs : o.observations) sequences.push_back(obs.sequence());
  EXPECT_EQ(std::set<uint64_t>(sequences.begin(), sequences.end()).size(), sequences.size());

  EXPECT_TRUE(o.summary.isolation_run());
  EXPECT_EQ(o.summary.isolation_runs(), 1);
  EXPECT_EQ(o.summary.isolation_tests(), 3);
  EXPECT_GT(o.summary.isolation_jvm_seconds(), 0);
  // A test whose outcome depends on the excluded one is reported.
  EXPECT_THAT(std::vector<std::string>(o.summary.isolation_outcome_changed().begin(),
                                       o.summary.isolation_outcome_changed().end()),
              ElementsAre("ex.VaultTest#dNeedsTheCode: passed with the excluded tests, FAILED "
                          "without them"));
  EXPECT_EQ(o.summary.tests_failed(), 1);
  EXPECT_THAT(o.result.stdout_data,
              HasSubstr("isolation run (the other tests' observations come from a JVM in which "
                        "no excluded test ran): 3 tests, 1 run, "));
  EXPECT_THAT(o.result.stdout_data,
              HasSubstr("  outcome changed without the excluded tests: "
                        "ex.VaultTest#dNeedsTheCode: passed with the excluded tests, FAILED "
                        "without them"));

  // Deterministic: the same inputs write the same files (the summary but
  // for the JVMs' wall times).
  Observed again = Observe("again", {"--tests-src", Source()});
  ASSERT_EQ(again.result.exit_code, 0) << again.Output();
  testing::ExpectSameOutput(o, again);
}

TEST_F(ObserveExclusionTest, NoninterferenceComparesTheIsolatedObservations) {
  ASSERT_FALSE(classes_.empty());
  Observed o = Observe("ni", {"--tests-src", Source(), "--noninterference"});
  ASSERT_EQ(o.result.exit_code, 0) << o.Output();
  EXPECT_TRUE(o.summary.isolation_run());
  EXPECT_TRUE(o.summary.noninterference());
  // No denied field here: the substituted run (without the excluded test)
  // records what the isolation run did, so nothing is withheld — had it
  // run the excluded test, or been compared with run A, the innocent
  // tests' values would differ.
  EXPECT_EQ(o.summary.noninterference_runs(), 2);
  EXPECT_EQ(o.summary.withheld_dependent(), 0);
  EXPECT_EQ(o.summary.tests_withheld_size(), 0);
  for (const std::string& line : LeavingLines(o.jsonl)) {
    EXPECT_THAT(line, Not(HasSubstr(kCode)));
  }
  EXPECT_THAT(TestsOf(o, false),
              ElementsAre("ex.VaultTest#bDescribes", "ex.VaultTest#cDescribesFor"));
  EXPECT_THAT(TestsOf(o, true), ElementsAre("ex.VaultTest#aResetsPassword"));
}

// A test the isolation run excludes by its recorded strings (it mentions a
// sensitive name only without the first excluded test) may have left data
// for the tests after it: the rest run once more without it.
constexpr char kDesk[] = R"(package ex;
public class Desk {
  public static String mode = "";
  public static int visits = 0;
  public static String status(String who) {
    ++visits;
    return who + (mode.isEmpty() ? ": password reset pending" : ": ok");
  }
  public static int visits() { return visits; }
}
)";

constexpr char kDeskTest[] = R"(package ex;
import org.junit.jupiter.api.*;
@TestMethodOrder(MethodOrderer.MethodName.class)
class DeskTest {
  @Test void aHandlesPassword() { String password = "x"; Desk.mode = "reset"; }
  @Test void bChecks() { Desk.status("ann"); }
  @Test void cCounts() { Desk.visits(); }
}
)";

TEST_F(ObserveExclusionTest, ATestTheIsolationRunExcludesMakesTheRestRunAgain) {
  std::string classes = testing::CompileJava(
      dir_, {{"ex/Desk.java", kDesk}, {"ex/DeskTest.java", kDeskTest}}, {"-g"},
      testing::JunitJar());
  ASSERT_FALSE(classes.empty());
  std::string out = dir_.path() + "/desk";
  Observed o = testing::RunObserve({"observe", "--classpath", classes, "--tests", "ex.DeskTest",
                                    "--method", "ex.Desk#*", "--tests-src", Source(), "--out",
                                    out},
                                   out);
  ASSERT_EQ(o.result.exit_code, 0) << o.Output();
  EXPECT_EQ(o.summary.isolation_runs(), 2);
  EXPECT_EQ(o.summary.isolation_tests(), 1);
  EXPECT_EQ(o.summary.tests_excluded(), 2);
  ASSERT_EQ(o.observations.size(), 2u);
  // cCounts comes from the second isolation run: bChecks never ran there.
  const v1::Observation& counts = o.observations[0];
  EXPECT_EQ(counts.test_id(), "ex.DeskTest#cCounts");
  EXPECT_FALSE(counts.excluded());
  EXPECT_EQ(counts.outcome().returned().int_value(), 0);
  // bChecks keeps what the first isolation run recorded, flagged.
  const v1::Observation& checks = o.observations[1];
  EXPECT_EQ(checks.test_id(), "ex.DeskTest#bChecks");
  EXPECT_TRUE(checks.excluded());
  EXPECT_THAT(checks.excluded_reason(), HasSubstr("recorded data mentions \"password\""));
  EXPECT_EQ(checks.outcome().returned().string_value(), "ann: password reset pending");
  EXPECT_THAT(o.summary.isolation_outcome_changed(), ::testing::IsEmpty());
}

// A "reference model" class nested in a test file holds a copy of the
// method under test. The bytecode check reads every class compiled from
// the file, not only the test class: every test of the file — the one that
// uses the model, the one that does not, and a @Nested class's — is
// excluded, naming the nested method and the target; a test of another
// file is not. No test sources are needed.
constexpr char kMeter[] = R"(package ex;
public class Meter {
  public static int step(int level, int delta, int cap) {
    if (delta < 0) throw new IllegalArgumentException("negative step");
    int next = level + delta;
    if (next > cap) next = cap;
    if (next % 2 == 1) next = next - 1;
    return next;
  }
}
)";
constexpr char kMeterTest[] = R"(package ex;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.*;
class MeterTest {
  static final class Reference {
    static int apply(int from, int by, int limit) {
      if (by < 0) throw new IllegalArgumentException("bad");
      int n = from + by;
      if (n > limit) n = limit;
      if (n % 2 == 1) n = n - 1;
      return n;
    }
  }
  @Test void stepsLikeTheReference() {
    for (int d = 0; d < 5; d++) assertEquals(Reference.apply(3, d, 6), Meter.step(3, d, 6));
  }
  @Test void stepsUp() { assertEquals(4, Meter.step(1, 3, 9)); }
  @Nested class Edges {
    @Test void capped() { assertEquals(6, Meter.step(5, 9, 6)); }
  }
}
)";
constexpr char kGaugeTest[] = R"(package ex;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class GaugeTest {
  @Test void stepsFromZero() { assertEquals(2, Meter.step(0, 2, 9)); }
}
)";

TEST(ObserveCopyCheckTest, ACopyInANestedClassExcludesEveryTestOfItsFile) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir,
      {{"ex/Meter.java", kMeter}, {"ex/MeterTest.java", kMeterTest},
       {"ex/GaugeTest.java", kGaugeTest}},
      {"-g"}, testing::JunitJar());
  ASSERT_FALSE(classes.empty());
  std::string out = dir.path() + "/observed";
  Observed o = testing::RunObserve({"observe", "--classpath", classes, "--tests", "ex.GaugeTest",
                                    "--tests", "ex.MeterTest", "--method", "ex.Meter#step",
                                    "--out", out},
                                   out);
  ASSERT_EQ(o.result.exit_code, 0) << o.Output();
  EXPECT_EQ(o.summary.tests_excluded(), 3) << o.Output();
  const std::string reason =
      ": ex.MeterTest$Reference#apply, in its test file: its bytecode copies the body of "
      "ex.Meter#step(III)I (";
  for (const char* test : {"ex.MeterTest#stepsLikeTheReference", "ex.MeterTest#stepsUp",
                           "ex.MeterTest$Edges#capped"}) {
    EXPECT_THAT(o.result.stdout_data, HasSubstr(std::string("  ") + test + reason)) << test;
  }
  std::set<std::string> excluded, kept;
  for (const v1::Observation& obs : o.observations) {
    (obs.excluded() ? excluded : kept).insert(obs.test_id());
  }
  EXPECT_EQ(excluded, (std::set<std::string>{"ex.MeterTest#stepsLikeTheReference",
                                             "ex.MeterTest#stepsUp",
                                             "ex.MeterTest$Edges#capped"}));
  EXPECT_EQ(kept, std::set<std::string>{"ex.GaugeTest#stepsFromZero"});
}

}  // namespace
}  // namespace tracespec
