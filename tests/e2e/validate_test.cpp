// `tracespec validate` end to end on the compiled bank example (class files
// only, never Account's source) with observations recorded by a real
// `tracespec observe` run of bank.AccountTest, and on bad input.
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string BankClasses() { return std::string(TRACESPEC_EXAMPLES_DIR) + "/bank/classes"; }
std::string BankTestClasses() { return std::string(TRACESPEC_EXAMPLES_DIR) + "/bank/test-classes"; }

class ValidateBankTest : public ::testing::Test {
 protected:
  // Records the observations of one method of Account once per suite.
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    for (const char* method : {"deposit", "withdraw"}) {
      std::string out = absl::StrCat(dir_->path(), "/", method);
      SubprocessResult r = testing::RunTracespec(
          {"observe", "--classpath", BankClasses() + ":" + BankTestClasses(), "--tests",
           "bank.AccountTest", "--method", absl::StrCat("bank.Account#", method), "--out", out,
           "--tests-src", testing::SourceDir() + "/examples/bank/test"});
      ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
    }
  }
  static void TearDownTestSuite() { delete dir_; }

  static std::string Observations(const std::string& method) {
    return absl::StrCat(dir_->path(), "/", method);
  }

  SubprocessResult Validate(const std::string& contract, std::vector<std::string> extra = {},
                            const std::string& name = "contract.txt",
                            const std::string& method = "bank.Account#deposit") {
    std::string file = local_.Write(name, contract);
    std::vector<std::string> args = {"validate", "--classpath", BankClasses(), "--method",
                                     method, "--contract", file};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunTracespec(args);
  }

  static testing::TempDir* dir_;
  testing::TempDir local_;
};

testing::TempDir* ValidateBankTest::dir_ = nullptr;

const char* kBalance =
    "//@ requires amount > 0;\n"
    "//@ ensures balance == \\old(balance) + amount;\n";

const char* kFull =
    "//@ requires amount > 0;\n"
    "//@ ensures balance == \\old(balance) + amount;\n"
    "//@ assignable balance, checksum, audit.entries, audit.lastEntry;\n"
    "//@ also\n"
    "//@ requires amount <= 0;\n"
    "//@ signals_only IllegalArgumentException;\n"
    "//@ assignable \\nothing;\n";

const char* kWithdraw =
    "/*@ public normal_behavior\n"
    "  @   requires 0 < amount && amount <= balance && audit != null;\n"
    "  @   ensures balance == \\old(balance) - amount;\n"
    "  @   assignable balance, checksum, audit.entries, audit.lastEntry;\n"
    "  @ also\n"
    "  @ public exceptional_behavior\n"
    "  @   requires amount > balance && amount > 0;\n"
    "  @   signals_only InsufficientFundsException;\n"
    "  @   signals (InsufficientFundsException e) balance == \\old(balance);\n"
    "  @   assignable \\nothing;\n"
    "  @ also\n"
    "  @ public exceptional_behavior\n"
    "  @   requires amount <= 0;\n"
    "  @   signals_only IllegalArgumentException;\n"
    "  @   assignable \\nothing;\n"
    "  @*/\n";

// One run of `tracespec validate` and what it must print.
struct ValidateCase {
  std::string name;
  std::string contract;
  // More flags; "@deposit" stands for the recorded observations of deposit
  // ("@deposit/observations.jsonl" for a file in them).
  std::vector<std::string> flags;
  int exit_code = 0;
  std::vector<std::string> out = {};     // in stdout
  std::vector<std::string> err = {};     // in stderr
  std::vector<std::string> not_out = {}; // not in stdout
  std::string method = "bank.Account#deposit";
  std::string file = "contract.txt";
};

void PrintTo(const ValidateCase& c, std::ostream* os) { *os << c.name; }

// The account signs each change with its audit key (a String field), whose
// characters the execution reads: keys longer than L were not explored, so
// a PASS is within that bound, never complete.
constexpr char kPassWithinKeyBound[] =
    "consistency: PASS (within bounds: input strings of at most 4 characters";

std::vector<ValidateCase> Cases() {
  return {
      {"BalanceContractIsConsistent", kBalance, {}, 0,
       {kPassWithinKeyBound, "coverage: SKIPPED", "result: 1-"}},
      {"FrameWithoutTheChecksumFailsNamingIt",
       absl::StrCat(kBalance, "//@ assignable balance;\n"),
       {},
       10,
       {"consistency: FAIL (assignable balance;", "this.checksum changed from", "result: 0-",
        // The counterexample is an observation: arguments, objects, outcome.
        "args: amount = ", "pre:  #1 bank.Account {"}},
      // The audit key is redacted: the frame cannot be decided on it, so it
      // is free.
      {"FullFramePassesBothChecksOnRecordedObservations", kFull, {"--observations", "@deposit"}, 0,
       {kPassWithinKeyBound, "coverage: PASS (5 of 5 observations admitted", "auditKey",
        "result: 11"}},
      {"FullFramePassesOnTheJsonlFileAndPrintsJson", kFull,
       {"--observations", "@deposit/observations.jsonl", "--json"}, 0,
       {"\"result\":\"11\"", "\"admitted\":5,\"total\":5"}},
      {"WithdrawWithExceptionalCasesPassesBothChecks", kWithdraw,
       {"--observations", "@withdraw"}, 0,
       {kPassWithinKeyBound, "coverage: PASS (2 of 2 observations admitted"}, {}, {},
       "bank.Account#withdraw"},
      {"CoverageRejectsAnObservationTheContractExcludes", kBalance,
       {"--observations", "@deposit"}, 10,
       {"coverage: FAIL (4 of 5 observations admitted", "bank.AccountTest#depositMustBePositive",
        "result: 10"}},
      {"SyntaxErrorIsBadInputWithPosition", "//@ requires amount > 0;\n//@ ensures balance == ;\n",
       {}, 3, {}, {"contract.txt:2:24: expected an expression"}, {"consistency:", "result:"}},
      {"MissingFieldIsBadInput", "//@ ensures balanse == \\old(balance) + amount;\n", {}, 3, {},
       {"contract.txt:1:13", "balanse"}},
      {"ObservationsOfAnotherMethodAreBadInput", kBalance, {"--observations", "@withdraw"}, 3, {},
       {"no observation of bank.Account#deposit(I)V among the 2 given (they are of "
        "bank.Account#withdraw(I)V)"},
       {"consistency:"}},
      {"MissingMethodIsBadInput", kBalance, {}, 3, {}, {"depositAll"}, {},
       "bank.Account#depositAll"},
      {"ContractInAJmlFile",
       "package bank;\n"
       "public class Account {\n"
       "  //@ requires amount > 0;\n"
       "  //@ ensures balance == \\old(balance) + amount;\n"
       "  //@ assignable balance, checksum, audit.entries, audit.lastEntry;\n"
       "  public void deposit(int amount);\n"
       "}\n",
       {}, 0, {kPassWithinKeyBound}, {}, {}, "bank.Account#deposit", "Account.jml"},
  };
}

class ValidateBankCaseTest : public ValidateBankTest,
                             public ::testing::WithParamInterface<ValidateCase> {};

TEST_P(ValidateBankCaseTest, Run) {
  const ValidateCase& c = GetParam();
  std::vector<std::string> flags;
  for (const std::string& flag : c.flags) {
    flags.push_back(flag[0] == '@' ? Observations(flag.substr(1)) : flag);
  }
  SubprocessResult r = Validate(c.contract, flags, c.file, c.method);
  EXPECT_EQ(r.exit_code, c.exit_code) << r.stdout_data << r.stderr_data;
  for (const std::string& text : c.out) EXPECT_THAT(r.stdout_data, HasSubstr(text));
  for (const std::string& text : c.err) EXPECT_THAT(r.stderr_data, HasSubstr(text));
  for (const std::string& text : c.not_out) EXPECT_THAT(r.stdout_data, Not(HasSubstr(text)));
}

INSTANTIATE_TEST_SUITE_P(Bank, ValidateBankCaseTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ValidateCase>& info) {
                           return info.param.name;
                         });

TEST_F(ValidateBankTest, TruncatedObservationFileIsBadInput) {
  auto data = ReadFile(Observations("deposit") + "/observations.pb");
  ASSERT_TRUE(data.ok());
  std::string cut = local_.Write("cut.pb", data->substr(0, data->size() - 7));
  SubprocessResult r = Validate(kBalance, {"--observations", cut});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("cut.pb"));
}

}  // namespace
}  // namespace tracespec
