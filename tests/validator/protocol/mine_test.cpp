// Tests for protocol mining from observations built as protos.
#include "validator/protocol/mine.h"

#include <algorithm>
#include <random>

#include "gtest/gtest.h"
#include "tests/validator/protocol/loan_observations.h"
#include "validator/ctl/check.h"

namespace tracespec::protocol {
namespace {

MineOptions Options(std::vector<std::string> fields) {
  MineOptions o;
  o.class_name = "bank.Loan";
  o.state_fields = std::move(fields);
  o.source = "obs.jsonl";
  return o;
}

TEST(Mine, TwoFieldsGiveStatesPropositionsAndLabelledTransitions) {
  auto mined = MineProtocol(testing::LoanObservations(), Options({"state", "approved"}));
  ASSERT_TRUE(mined.ok()) << mined.status();
  EXPECT_EQ(mined->calls, 7);
  EXPECT_EQ(mined->constructions, 2);
  EXPECT_EQ(mined->objects, 2);
  EXPECT_EQ(mined->tests, 2);
  EXPECT_TRUE(mined->gaps.empty());
  EXPECT_EQ(mined->text,
            "# Protocol of bank.Loan mined by tracespec from obs.jsonl\n"
            "# 7 calls and 2 constructions on 2 objects in 2 tests\n"
            "# abstract state: (state, approved); transitions are labelled with the methods seen to take them\n"
            "states state=APPROVED,approved=true state=NEW,approved=false state=REVIEW,approved=false "
            "state=SUBMITTED,approved=false\n"
            "init state=NEW,approved=false [new Loan()]\n"
            "label approved=false: state=NEW,approved=false state=REVIEW,approved=false "
            "state=SUBMITTED,approved=false\n"
            "label approved=true: state=APPROVED,approved=true\n"
            "label state=APPROVED: state=APPROVED,approved=true\n"
            "label state=NEW: state=NEW,approved=false\n"
            "label state=REVIEW: state=REVIEW,approved=false\n"
            "label state=SUBMITTED: state=SUBMITTED,approved=false\n"
            "# without successors (the self-loop deadlock policy adds s -> s): state=APPROVED,approved=true\n"
            "state=NEW,approved=false -> state=SUBMITTED,approved=false [submit]\n"
            "state=REVIEW,approved=false -> state=APPROVED,approved=true [approve]\n"
            "state=REVIEW,approved=false -> state=SUBMITTED,approved=false [sendBack]\n"
            "state=SUBMITTED,approved=false -> state=SUBMITTED,approved=false [approve!IllegalStateException]\n"
            "state=SUBMITTED,approved=false -> state=REVIEW,approved=false [review]\n");
}

TEST(Mine, OutputDoesNotDependOnInputOrder) {
  std::vector<v1::Observation> obs = testing::LoanObservations();
  auto reference = MineProtocol(obs, Options({"state", "approved"}));
  ASSERT_TRUE(reference.ok());
  std::mt19937 rng(7);
  for (int i = 0; i < 5; ++i) {
    std::shuffle(obs.begin(), obs.end(), rng);
    auto again = MineProtocol(obs, Options({"state", "approved"}));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->text, reference->text);
  }
}

TEST(Mine, MinedModelFeedsTheChecker) {
  auto mined = MineProtocol(testing::LoanObservations(), Options({"state"}));
  ASSERT_TRUE(mined.ok()) << mined.status();
  EXPECT_EQ(mined->model.num_labels(), 0u);  // one field: state names are the propositions
  auto report = ctl::CheckFormulas(mined->model, {"EF state=APPROVED", "AF state=APPROVED", "AG !state=NEW | AX state=SUBMITTED"}, {});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->results[0].holds);
  EXPECT_FALSE(report->results[1].holds);  // review / sendBack can repeat forever
  EXPECT_TRUE(report->results[1].evidence[0].trace.is_lasso());
  EXPECT_TRUE(report->results[2].holds);
}

TEST(Mine, GapsBetweenCallsAreReported) {
  std::vector<v1::Observation> obs = testing::LoanObservations();
  const testing::LoanState fresh{"NEW", false}, review{"REVIEW", false};
  obs.push_back(testing::LoanCall("bank.LoanTest#approves", 7, "review", 7, &review, review));
  auto mined = MineProtocol(obs, Options({"state"}));
  ASSERT_TRUE(mined.ok());
  ASSERT_EQ(mined->gaps.size(), 1u);
  EXPECT_NE(mined->gaps[0].find("starts in state=REVIEW but the previous call on the object ended in state=APPROVED"),
            std::string::npos)
      << mined->gaps[0];
}

TEST(Mine, ObjectsWithoutObservedConstructionStartWhereFirstSeen) {
  const testing::LoanState submitted{"SUBMITTED", false}, review{"REVIEW", false};
  auto mined = MineProtocol({testing::LoanCall("T#t", 1, "review", 3, &submitted, review),
                             testing::LoanCall("T#t", 2, "sendBack", 3, &review, submitted)},
                            Options({"state"}));
  ASSERT_TRUE(mined.ok()) << mined.status();
  ASSERT_EQ(mined->model.initial_states().size(), 1u);
  EXPECT_EQ(mined->model.StateName(mined->model.initial_states()[0]), "state=SUBMITTED");
}

TEST(Mine, BadInput) {
  auto unknown = MineProtocol(testing::LoanObservations(), Options({"status"}));
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "field 'status' of bank.Loan is not recorded in any of 9 observations of the class in obs.jsonl "
            "(check its name and the recording policy)");
  MineOptions other = Options({"state"});
  other.class_name = "bank.Account";
  EXPECT_EQ(MineProtocol(testing::LoanObservations(), other).status().message(),
            "no observed calls on objects of class bank.Account in obs.jsonl");
  std::vector<v1::Observation> redacted = testing::LoanObservations();
  redacted[1].mutable_pre(0)->mutable_fields(0)->mutable_value()->mutable_redacted();
  auto r = MineProtocol(redacted, Options({"approved"}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "obs.jsonl: observation 2 (bank.Loan.submit in bank.LoanTest#approves): field 'approved' is redacted "
            "by the policy, so it cannot be part of the abstract state");
}

}  // namespace
}  // namespace tracespec::protocol
