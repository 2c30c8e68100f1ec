// End-to-end: the loan example's protocol mined from a real JUnit run under
// the probe, and explored from the bytecode on Z3, both checked with the
// workflow's formulas; the buggy variant's shortcut is caught by AG with the
// call sequence that reaches the bad state. Real javac, JVM and Z3.
#include <map>
#include <string>
#include <vector>

#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char* const kEf = "EF state=APPROVED";
const char* const kAf = "AF state=APPROVED";
const char* const kAg = "AG !state=LENT_WITHOUT_APPROVAL";

class LoanProtocolTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dirs_ = new std::vector<testing::TempDir>(3);
    const std::string root = testing::SourceDir() + "/examples/loan/";
    auto source = [&](const std::string& file) { return ReadFile(root + file).value_or(""); };
    classes_ = new std::string(
        testing::CompileJava((*dirs_)[0], {{"loan/LoanApplication.java", source("src/loan/LoanApplication.java")}},
                             {"-g", "--release", "8"}));
    buggy_ = new std::string(
        testing::CompileJava((*dirs_)[1], {{"loan/LoanApplication.java", source("buggy/loan/LoanApplication.java")}},
                             {"-g", "--release", "8"}));
    tests_ = new std::string(testing::CompileJava(
        (*dirs_)[2], {{"loan/LoanApplicationTest.java", source("test/loan/LoanApplicationTest.java")}},
        {"-g", "--release", "8"}, *classes_ + ":" + testing::JunitJar()));
  }
  static void TearDownTestSuite() {
    delete classes_;
    delete buggy_;
    delete tests_;
    delete dirs_;
  }

  // Runs the tests on `classes` under the probe, recording every public
  // method of the class; returns the output directory.
  std::string Observe(const std::string& classes) {
    const std::string out = dir_.path() + "/obs";
    std::vector<std::string> args = {"observe", "--classpath", classes + ":" + *tests_, "--tests",
                                     "loan.LoanApplicationTest", "--out", out};
    for (const char* m : {"<init>", "submit", "review", "sendBack", "approve", "lend", "getState",
                          "getReviewRounds", "getApplicant"}) {
      args.push_back("--method");
      args.push_back(std::string("loan.LoanApplication#") + m);
    }
    SubprocessResult run = testing::RunTracespec(args);
    EXPECT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;
    EXPECT_THAT(run.stdout_data, HasSubstr("tests: 4 run, 4 passed"));
    return out;
  }

  SubprocessResult Explore(const std::string& classes, std::vector<std::string> extra) {
    std::vector<std::string> args = {"protocol", "explore", "--classpath", classes, "--class",
                                     "loan.LoanApplication", "--state-fields", "state"};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunTracespec(args);
  }

  static std::vector<std::string> Checks() { return {"--check", kEf, "--check", kAf, "--check", kAg}; }

  static std::vector<testing::TempDir>* dirs_;
  static std::string* classes_;
  static std::string* buggy_;
  static std::string* tests_;
  testing::TempDir dir_;
};

std::vector<testing::TempDir>* LoanProtocolTest::dirs_ = nullptr;
std::string* LoanProtocolTest::classes_ = nullptr;
std::string* LoanProtocolTest::buggy_ = nullptr;
std::string* LoanProtocolTest::tests_ = nullptr;

TEST_F(LoanProtocolTest, MinedAndExploredModelsOfTheCorrectClass) {
  const std::string obs = Observe(*classes_);
  // Mined: what the tests did. --classpath declares the enum's other values.
  const std::string mined_model = dir_.path() + "/mined.kripke";
  std::vector<std::string> mine = {"protocol", "mine", "--observations", obs, "--class", "loan.LoanApplication",
                                   "--state-fields", "state", "--classpath", *classes_, "--out", mined_model};
  for (const std::string& c : Checks()) mine.push_back(c);
  SubprocessResult mined = testing::RunTracespec(mine);
  EXPECT_EQ(mined.exit_code, 10) << mined.stdout_data << mined.stderr_data;  // AF fails
  EXPECT_THAT(mined.stderr_data, HasSubstr("loan.LoanApplication: 4 abstract states, 18 calls on 4 objects in 4 tests"));
  EXPECT_THAT(mined.stdout_data, HasSubstr("EF state=APPROVED: holds"));
  EXPECT_THAT(mined.stdout_data, HasSubstr("AF state=APPROVED: FAILS"));
  EXPECT_THAT(mined.stdout_data, HasSubstr("AG !state=LENT_WITHOUT_APPROVAL: holds"));
  EXPECT_THAT(mined.stdout_data, HasSubstr("EF state=APPROVED (holds, witness): new LoanApplication(String,int) ; "
                                           "submit() ; review() ; approve()"));
  auto text = ReadFile(mined_model);
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, HasSubstr("init state=BEFORE_SUBMISSION [new LoanApplication(String,int)]\n"));
  EXPECT_THAT(*text, HasSubstr("label state=LENT_WITHOUT_APPROVAL:\n"));
  EXPECT_THAT(*text, HasSubstr("state=UNDER_REVIEW -> state=SUBMITTED [sendBack]\n"));

  // Explored: what the implementation allows, compared with the observations.
  const std::string explored_model = dir_.path() + "/explored.kripke";
  std::vector<std::string> extra = {"--observations", obs, "--out", explored_model};
  for (const std::string& c : Checks()) extra.push_back(c);
  SubprocessResult explored = Explore(*classes_, extra);
  const std::string& out = explored.stdout_data;
  EXPECT_EQ(explored.exit_code, 10) << out << explored.stderr_data;
  EXPECT_THAT(out, HasSubstr("loan.LoanApplication: 4 abstract states (state) reachable from 1 constructor(s) by 8 "
                             "public method(s); 33 transitions"));
  EXPECT_THAT(out, Not(HasSubstr("INCOMPLETE")));
  EXPECT_THAT(out, HasSubstr("  exercised by the tests: 10\n"));
  EXPECT_THAT(out, HasSubstr("    state=SUBMITTED -[review]-> state=UNDER_REVIEW\n"));
  // Every transition the tests missed keeps the state: exceptions and getters.
  EXPECT_THAT(out, HasSubstr("  never exercised, changing the state: 0\n  never exercised, keeping the state: 23\n"));
  EXPECT_THAT(out, HasSubstr("    state=APPROVED -[lend!IllegalArgumentException]-> state=APPROVED\n"));
  EXPECT_THAT(out, HasSubstr("    state=UNDER_REVIEW -[lend!IllegalStateException]-> state=UNDER_REVIEW\n"));
  EXPECT_THAT(out, HasSubstr("methods never observed (perhaps not recorded; 4 of the transitions above): getApplicant\n"));
  EXPECT_THAT(out, HasSubstr("every observed transition is explored"));
  EXPECT_THAT(out, HasSubstr("EF state=APPROVED: holds"));
  EXPECT_THAT(out, HasSubstr("AF state=APPROVED: FAILS"));
  EXPECT_THAT(out, HasSubstr("AG !state=LENT_WITHOUT_APPROVAL: holds"));
  EXPECT_THAT(out, HasSubstr("AF state=APPROVED (FAILS, counterexample): new LoanApplication(String,int) ; { "));

  // The saved model reads back into `tracespec ctl` with the same verdicts.
  SubprocessResult ctl = testing::RunTracespec({"ctl", explored_model, kEf, kAg});
  EXPECT_EQ(ctl.exit_code, 0) << ctl.stdout_data << ctl.stderr_data;
  EXPECT_THAT(ctl.stdout_data, HasSubstr("path: [new LoanApplication(String,int)] state=BEFORE_SUBMISSION -[submit]-> "
                                         "state=SUBMITTED -[review]-> state=UNDER_REVIEW -[approve]-> state=APPROVED"));
}

TEST_F(LoanProtocolTest, TheBuggyShortcutIsCaughtWithItsCallSequence) {
  const std::string obs = Observe(*buggy_);  // the same tests pass on the buggy class
  SubprocessResult explored = Explore(*buggy_, {"--observations", obs, "--check", kAg});
  const std::string& out = explored.stdout_data;
  EXPECT_EQ(explored.exit_code, 10) << out << explored.stderr_data;
  EXPECT_THAT(out, HasSubstr("  never exercised, changing the state: 2\n"
                             "    state=SUBMITTED -[lend]-> state=LENT_WITHOUT_APPROVAL\n"
                             "    state=SUBMITTED -[lend!IllegalArgumentException]-> state=LENT_WITHOUT_APPROVAL\n"));
  EXPECT_THAT(out, HasSubstr("reachable states no tested object was in: state=LENT_WITHOUT_APPROVAL"));
  EXPECT_THAT(out, HasSubstr("AG !state=LENT_WITHOUT_APPROVAL: FAILS in state=BEFORE_SUBMISSION"));
  EXPECT_THAT(out, HasSubstr("path: [new LoanApplication(String,int)] state=BEFORE_SUBMISSION -[submit]-> "
                             "state=SUBMITTED -[lend, lend!IllegalArgumentException]-> state=LENT_WITHOUT_APPROVAL"));
  EXPECT_THAT(out, HasSubstr("AG !state=LENT_WITHOUT_APPROVAL (FAILS, counterexample): "
                             "new LoanApplication(String,int) ; submit() ; lend(int)\n"));

  // The tests never take the shortcut: the mined model satisfies AG.
  SubprocessResult mined = testing::RunTracespec({"protocol", "mine", "--observations", obs, "--class",
                                                  "loan.LoanApplication", "--state-fields", "state", "--classpath",
                                                  *buggy_, "--check", kAg});
  EXPECT_EQ(mined.exit_code, 0) << mined.stdout_data << mined.stderr_data;

  SubprocessResult json = Explore(*buggy_, {"--json", "--check", kAg});
  EXPECT_EQ(json.exit_code, 10);
  EXPECT_THAT(json.stdout_data, HasSubstr("\"complete\": true"));
  EXPECT_THAT(json.stdout_data, HasSubstr("\"new LoanApplication(String,int) ; submit() ; lend(int)\""));
  EXPECT_THAT(json.stdout_data, HasSubstr("\"initial_action\": \"new LoanApplication(String,int)\""));
}

TEST_F(LoanProtocolTest, BadInput) {
  auto explore = [&](const std::string& cls, const std::string& fields, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"protocol", "explore", "--classpath", *classes_, "--class", cls,
                                     "--state-fields", fields};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunTracespec(args);
  };
  SubprocessResult string_field = explore("loan.LoanApplication", "applicant");
  EXPECT_EQ(string_field.exit_code, 3);
  EXPECT_THAT(string_field.stderr_data,
              HasSubstr("state field 'applicant' of loan.LoanApplication has type java.lang.String"));
  // reviewRounds grows with every review: its values are not bounded.
  SubprocessResult unbounded = explore("loan.LoanApplication", "state,reviewRounds", {"--max-states", "6"});
  EXPECT_EQ(unbounded.exit_code, 3);
  EXPECT_THAT(unbounded.stderr_data, HasSubstr("more than 6 abstract states are reachable"));
  SubprocessResult missing = explore("loan.Nope", "state");
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_THAT(missing.stderr_data, HasSubstr("class loan.Nope not found on the class path"));
}

}  // namespace
}  // namespace tracespec
