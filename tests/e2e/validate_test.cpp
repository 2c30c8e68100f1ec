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
                            const std::string& name = "contract.txt") {
    std::string file = local_.Write(name, contract);
    std::vector<std::string> args = {"validate", "--classpath", BankClasses(), "--method",
                                     "bank.Account#deposit", "--contract", file};
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

TEST_F(ValidateBankTest, BalanceContractIsConsistent) {
  SubprocessResult r = Validate(kBalance);
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("consistency: PASS (complete)"));
  EXPECT_THAT(r.stdout_data, HasSubstr("coverage: SKIPPED"));
  EXPECT_THAT(r.stdout_data, HasSubstr("result: 11"));
}

TEST_F(ValidateBankTest, FrameWithoutTheChecksumFailsNamingIt) {
  SubprocessResult r = Validate(absl::StrCat(kBalance, "//@ assignable balance;\n"));
  EXPECT_EQ(r.exit_code, 10) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("consistency: FAIL (assignable balance;"));
  EXPECT_THAT(r.stdout_data, HasSubstr("this.checksum changed from"));
  EXPECT_THAT(r.stdout_data, HasSubstr("result: 01"));
  // The counterexample is an observation: arguments, objects, outcome.
  EXPECT_THAT(r.stdout_data, HasSubstr("args: amount = "));
  EXPECT_THAT(r.stdout_data, HasSubstr("pre:  #1 bank.Account {"));
}

const char* kFull =
    "//@ requires amount > 0;\n"
    "//@ ensures balance == \\old(balance) + amount;\n"
    "//@ assignable balance, checksum, audit.entries, audit.lastEntry;\n"
    "//@ also\n"
    "//@ requires amount <= 0;\n"
    "//@ signals_only IllegalArgumentException;\n"
    "//@ assignable \\nothing;\n";

TEST_F(ValidateBankTest, FullFramePassesBothChecksOnRecordedObservations) {
  SubprocessResult r = Validate(kFull, {"--observations", Observations("deposit")});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("consistency: PASS (complete)"));
  EXPECT_THAT(r.stdout_data, HasSubstr("coverage: PASS (5 of 5 observations admitted"));
  // The audit key is redacted: the frame cannot be decided on it, so it is free.
  EXPECT_THAT(r.stdout_data, HasSubstr("auditKey"));
  EXPECT_THAT(r.stdout_data, HasSubstr("result: 11"));
  // Also from the .jsonl file, and as JSON.
  r = Validate(kFull, {"--observations", Observations("deposit") + "/observations.jsonl", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("\"result\":\"11\""));
  EXPECT_THAT(r.stdout_data, HasSubstr("\"admitted\":5,\"total\":5"));
}

TEST_F(ValidateBankTest, WithdrawWithExceptionalCasesPassesBothChecks) {
  std::string file = local_.Write(
      "withdraw.txt",
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
      "  @*/\n");
  SubprocessResult r = testing::RunTracespec(
      {"validate", "--classpath", BankClasses(), "--method", "bank.Account#withdraw", "--contract",
       file, "--observations", Observations("withdraw")});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("consistency: PASS (complete)"));
  EXPECT_THAT(r.stdout_data, HasSubstr("coverage: PASS (2 of 2 observations admitted"));
}

TEST_F(ValidateBankTest, CoverageRejectsAnObservationTheContractExcludes) {
  SubprocessResult r = Validate(kBalance, {"--observations", Observations("deposit")});
  EXPECT_EQ(r.exit_code, 10) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("coverage: FAIL (4 of 5 observations admitted"));
  EXPECT_THAT(r.stdout_data, HasSubstr("bank.AccountTest#depositMustBePositive"));
  EXPECT_THAT(r.stdout_data, HasSubstr("result: 10"));
}

TEST_F(ValidateBankTest, SyntaxErrorIsBadInputWithPosition) {
  SubprocessResult r = Validate("//@ requires amount > 0;\n//@ ensures balance == ;\n");
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("contract.txt:2:24"));
  EXPECT_THAT(r.stdout_data, HasSubstr("consistency: ERROR (syntax error at"));
}

TEST_F(ValidateBankTest, MissingFieldIsBadInput) {
  SubprocessResult r = Validate("//@ ensures balanse == \\old(balance) + amount;\n");
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("contract.txt:1:13"));
  EXPECT_THAT(r.stderr_data, HasSubstr("balanse"));
}

TEST_F(ValidateBankTest, ObservationsOfAnotherMethodAreBadInput) {
  SubprocessResult r = Validate(kBalance, {"--observations", Observations("withdraw")});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("bank.Account#withdraw(I)V, not of bank.Account#deposit(I)V"));
  EXPECT_THAT(r.stdout_data, Not(HasSubstr("consistency:")));
}

TEST_F(ValidateBankTest, TruncatedObservationFileIsBadInput) {
  auto data = ReadFile(Observations("deposit") + "/observations.pb");
  ASSERT_TRUE(data.ok());
  std::string cut = local_.Write("cut.pb", data->substr(0, data->size() - 7));
  SubprocessResult r = Validate(kBalance, {"--observations", cut});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("cut.pb"));
}

TEST_F(ValidateBankTest, MissingMethodIsBadInput) {
  std::string file = local_.Write("c.txt", kBalance);
  SubprocessResult r = testing::RunTracespec({"validate", "--classpath", BankClasses(), "--method",
                                              "bank.Account#depositAll", "--contract", file});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("depositAll"));
}

TEST_F(ValidateBankTest, ContractInAJmlFile) {
  SubprocessResult r = Validate(
      "package bank;\n"
      "public class Account {\n"
      "  //@ requires amount > 0;\n"
      "  //@ ensures balance == \\old(balance) + amount;\n"
      "  //@ assignable balance, checksum, audit.entries, audit.lastEntry;\n"
      "  public void deposit(int amount);\n"
      "}\n",
      {}, "Account.jml");
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("consistency: PASS (complete)"));
}

}  // namespace
}  // namespace tracespec
