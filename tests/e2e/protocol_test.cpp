// End-to-end: `tracespec protocol mine` on observation files, then
// `tracespec ctl` on the mined model.
#include "common/files.h"
#include "common/proto_io.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "tests/validator/protocol/loan_observations.h"

namespace tracespec {
namespace {

TEST(ProtocolE2e, MinesAModelTheCheckerReads) {
  testing::TempDir dir;
  ASSERT_TRUE(MakeDirs(dir.path() + "/obs").ok());
  ASSERT_TRUE(WriteObservations(dir.path() + "/obs/run.jsonl", testing::LoanObservations()).ok());
  const std::string model = dir.path() + "/loan.kripke";
  SubprocessResult mine = testing::RunTracespec({"protocol", "mine", "--observations", dir.path() + "/obs",
                                                 "--class", "bank.Loan", "--state-fields", "state,approved",
                                                 "--out", model});
  ASSERT_EQ(mine.exit_code, 0) << mine.stderr_data;
  EXPECT_NE(mine.stderr_data.find("bank.Loan: 4 abstract states, 7 calls on 2 objects in 2 tests"),
            std::string::npos)
      << mine.stderr_data;
  auto text = ReadFile(model);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("state=REVIEW,approved=false -> state=APPROVED,approved=true [approve]"), std::string::npos);

  SubprocessResult strict = testing::RunTracespec({"ctl", model, "EF approved=true"});
  EXPECT_EQ(strict.exit_code, 3);  // APPROVED has no observed successor
  SubprocessResult check = testing::RunTracespec(
      {"ctl", model, "EF approved=true", "AG (approved=true -> state=APPROVED)", "AF approved=true",
       "--deadlock=self-loop"});
  EXPECT_EQ(check.exit_code, 10) << check.stdout_data << check.stderr_data;
  EXPECT_NE(check.stdout_data.find("AF approved=true: FAILS"), std::string::npos) << check.stdout_data;
  EXPECT_NE(check.stdout_data.find("lasso cycle:  state=SUBMITTED,approved=false -[approve!IllegalStateException]-> state=SUBMITTED,approved=false"), std::string::npos);

  SubprocessResult bad = testing::RunTracespec({"protocol", "mine", "--observations", dir.path() + "/obs",
                                                "--class", "bank.Loan", "--state-fields", "nope"});
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.stderr_data.find("field 'nope' of bank.Loan is not recorded"), std::string::npos);
}

}  // namespace
}  // namespace tracespec
