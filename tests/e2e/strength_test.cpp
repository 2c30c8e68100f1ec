// `tracespec strength` with mutants, end to end on a copy of examples/bank
// built by its own build command: `tracespec run`, then each method's
// bytecode mutants run against bank.AccountTest on the JVM and checked
// against the stored contract. The acceptance case of the mutation
// analysis: deposit without its checksum update (a removed field store)
// passes the project's tests and is killed by the contract alone.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(StrengthE2eTest, BankDroppedChecksumUpdateIsKilledByTheContractOnly) {
  testing::TempDir dir;
  std::string bank = dir.path() + "/bank";
  std::filesystem::copy(absl::StrCat(testing::SourceDir(), "/examples/bank"), bank,
                        std::filesystem::copy_options::recursive);
  RemoveAll(bank + "/target").IgnoreError();
  RemoveAll(bank + "/tracespec-out").IgnoreError();
  SubprocessResult run = testing::RunTracespec({"run", bank});
  ASSERT_EQ(run.exit_code, 0) << run.stdout_data << run.stderr_data;

  SubprocessResult strength = testing::RunTracespec({"strength", bank});
  ASSERT_EQ(strength.exit_code, 0) << strength.stdout_data << strength.stderr_data;
  const std::string& out = strength.stdout_data;
  EXPECT_THAT(out, HasSubstr("\nmutants (tests: bank.AccountTest)\nmethod  "));
  // deposit and withdraw without their checksum updates: the tests pass,
  // the contract's `ensures checksum == ...` fails with a counterexample.
  EXPECT_THAT(out, ContainsRegex("\n  contract only: M[0-9]+ putfield checksum removed @pc [0-9]+ "
                                 "\\(line 31\\): [^\n]*checksum"));
  EXPECT_THAT(out, ContainsRegex("\n  contract only: M[0-9]+ putfield checksum removed @pc [0-9]+ "
                                 "\\(line 43\\): [^\n]*checksum"));
  // The balance the tests check: its store removed is killed by both.
  EXPECT_THAT(out, Not(ContainsRegex("contract only: M[0-9]+ putfield balance removed")));
  EXPECT_THAT(out, ContainsRegex("bank.Account#deposit\\(I\\)V: [0-9]+ mutants: tests kill [1-9]"
                                 "[0-9]*, contract kills [1-9][0-9]* \\(both [1-9][0-9]*, "
                                 "contract only [1-9]"));
  EXPECT_THAT(out, HasSubstr("equivalence is not checked"));
  EXPECT_THAT(strength.stderr_data, HasSubstr("putfield checksum removed"));  // progress
  // The figures stay with the run: run.json, the method's result.json and
  // the report.
  absl::StatusOr<std::string> run_json = ReadFile(bank + "/tracespec-out/run.json");
  ASSERT_TRUE(run_json.ok());
  EXPECT_THAT(*run_json, ContainsRegex("\"mutants\":\\{\"run\":[1-9][0-9]*,"));
  EXPECT_THAT(*run_json, ContainsRegex("\"contract_only_example\":\"M[0-9]+ [^\"]*checksum"));
  absl::StatusOr<std::string> report = ReadFile(bank + "/tracespec-out/report.md");
  ASSERT_TRUE(report.ok());
  EXPECT_THAT(*report, ContainsRegex("mutants[^\n]*[0-9]+ mutants: tests kill"));
  EXPECT_THAT(*report, ContainsRegex("a mutant only the contract kills[^\n]*M[0-9]+ "));


  SubprocessResult skipped = testing::RunTracespec({"strength", bank, "--no-mutants"});
  ASSERT_EQ(skipped.exit_code, 0) << skipped.stderr_data;
  EXPECT_THAT(skipped.stdout_data, HasSubstr("\nmutants: skipped (--no-mutants)\n"));
  EXPECT_THAT(skipped.stdout_data, Not(HasSubstr("contract only")));

  // One contract, with and without the tests.
  std::vector<std::string> one = {
      "strength", "--classpath", bank + "/target/classes", "--method",
      "bank.Account#deposit(I)V", "--contract",
      bank + "/tracespec-out/specs/bank/Account.jml", "--observations",
      bank + "/tracespec-out/observations"};
  std::vector<std::string> with_tests = one;
  with_tests.insert(with_tests.end(),
                    {"--tests", "bank.AccountTest", "--test-classpath",
                     absl::StrCat(bank, "/target/classes:", bank, "/target/test-classes")});
  SubprocessResult tested = testing::RunTracespec(with_tests);
  ASSERT_EQ(tested.exit_code, 0) << tested.stdout_data << tested.stderr_data;
  EXPECT_THAT(tested.stdout_data, ContainsRegex("\n  contract only: M[0-9]+ putfield checksum "
                                                "removed @pc [0-9]+ \\(line 31\\): "));
  // The same inputs, the same bytes: deposit's lines as project mode
  // printed them (its summary and contract-only lines).
  size_t from = out.find("bank.Account#deposit(I)V: ", out.find("\nmutants (tests: "));
  size_t to = out.find("bank.Account#getBalance()I: ", from);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  EXPECT_THAT(tested.stdout_data, HasSubstr(out.substr(from, to - from)));
  one.insert(one.end(), {"--max-mutants", "5"});
  SubprocessResult untested = testing::RunTracespec(one);
  ASSERT_EQ(untested.exit_code, 0) << untested.stdout_data << untested.stderr_data;
  EXPECT_THAT(untested.stdout_data, HasSubstr("\nmutants (tests: none)\n"));
  EXPECT_THAT(untested.stdout_data, ContainsRegex("5 mutants \\(of [0-9]+\\): tests not run, "
                                                  "contract kills "));
  EXPECT_THAT(untested.stdout_data, HasSubstr("  tests: no tests given\n"));

  one.back() = "x";
  SubprocessResult bad = testing::RunTracespec(one);
  EXPECT_NE(bad.exit_code, 0);
  with_tests[with_tests.size() - 3] = "bank.NoSuchTest";
  SubprocessResult missing = testing::RunTracespec(with_tests);
  EXPECT_EQ(missing.exit_code, 3) << missing.stdout_data << missing.stderr_data;
  EXPECT_THAT(missing.stderr_data, HasSubstr("bank.NoSuchTest"));
}

}  // namespace
}  // namespace tracespec
