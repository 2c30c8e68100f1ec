// What the model is told about a report: diagnostics and counterexamples,
// never values of excluded observations or of redacted fields.
#include "agent/loop/feedback.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/observation_builders.h"

namespace tracespec::loop {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(FeedbackTest, ExcludedObservationsStayLocal) {
  check::ValidationReport report;
  report.consistency.status = check::CheckStatus::kPass;
  report.coverage.status = check::CheckStatus::kFail;
  report.coverage.summary = "1 of 3 observations admitted";
  v1::Observation shown = testing::Deposit("bank.T#ok", 5, 10, 15);
  v1::Observation hidden = testing::Deposit("bank.T#secret", 77, 10, 87);
  hidden.set_excluded(true);
  report.coverage.counterexamples = {shown, hidden};
  report.coverage.explanations = {"amount = 5 rejected", "amount = 77 rejected"};
  check::Diagnostic d1;
  d1.kind = check::Diagnostic::Kind::kViolated;
  d1.message = "observation of bank.T#ok rejected";
  d1.counterexamples = {0};
  check::Diagnostic d2 = d1;
  d2.message = "observation of bank.T#secret with amount 77 rejected";
  d2.counterexamples = {1};
  report.coverage.diagnostics = {d1, d2};

  prompt::ValidationFeedback feedback = FeedbackFromReport(report);
  std::string all;
  for (const std::string& line : feedback.diagnostics) all += line + "\n";
  EXPECT_THAT(all, HasSubstr("coverage: 1 of 3 observations admitted"));
  EXPECT_THAT(all, HasSubstr("bank.T#ok rejected"));
  EXPECT_THAT(all, HasSubstr("amount = 5 rejected"));
  EXPECT_THAT(all, HasSubstr("fails on an observation that may not be shown"));
  EXPECT_THAT(all, Not(HasSubstr("77")));
  EXPECT_THAT(all, Not(HasSubstr("secret")));
  // The counterexample itself goes on: the prompt builder withholds it.
  EXPECT_EQ(feedback.counterexamples.size(), 2u);
  EXPECT_FALSE(NotCheckable(report));
}

TEST(FeedbackTest, SolverCounterexamplesWithholdFieldsTheRecordingRedacted) {
  std::vector<v1::Observation> recorded = {testing::Deposit("bank.T#ok", 5, 10, 15)};
  v1::Observation made_up = testing::Deposit("", 1, 0, 1);
  made_up.set_source(v1::COUNTEREXAMPLE);
  *made_up.mutable_pre(0)->mutable_fields(2)->mutable_value() = testing::StringValue("1234");
  prompt::ValidationFeedback feedback;
  feedback.counterexamples = {made_up};
  feedback.diagnostics = {"coverage: assignable: field 'pin' may have changed; pins ok"};
  WithholdLikeRecorded(recorded, &feedback);
  const v1::Field& pin = feedback.counterexamples[0].pre(0).fields(2);
  EXPECT_EQ(pin.name(), "pin");
  EXPECT_TRUE(pin.value().has_redacted());
  EXPECT_EQ(feedback.counterexamples[0].pre(0).fields(0).value().int_value(), 0);  // balance
  EXPECT_EQ(feedback.diagnostics[0],
            "coverage: assignable: field '<withheld>' may have changed; pins ok");
}

TEST(FeedbackTest, SyntaxAndTypeErrorsMakeACandidateUncheckable) {
  check::ValidationReport report;
  report.consistency.status = check::CheckStatus::kError;
  report.coverage.status = check::CheckStatus::kError;
  check::Diagnostic d;
  d.kind = check::Diagnostic::Kind::kType;
  d.message = "no field 'balanse' in bank.Account";
  report.consistency.diagnostics = {d};
  EXPECT_TRUE(NotCheckable(report));
  report.consistency.diagnostics[0].kind = check::Diagnostic::Kind::kWellDefinedness;
  EXPECT_FALSE(NotCheckable(report));
}

TEST(FeedbackTest, AnUnsupportedConstructInTheContractMakesACandidateUncheckable) {
  check::ValidationReport report;
  report.consistency.status = check::CheckStatus::kUnknown;
  check::Diagnostic d;
  d.kind = check::Diagnostic::Kind::kUnsupported;
  d.message = "unsupported: \\reach";
  report.consistency.diagnostics = {d};
  // Unsupported bytecode reached by the execution (no clause): checkable.
  EXPECT_FALSE(NotCheckable(report));
  report.consistency.diagnostics[0].span.line = 3;
  report.consistency.diagnostics[0].span.column = 13;
  EXPECT_TRUE(NotCheckable(report));
}

}  // namespace
}  // namespace tracespec::loop
