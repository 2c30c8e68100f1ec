// project/run.h's summary counts and text: a contract that holds but says
// nothing about the outcome is not counted as one that holds.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "project/run.h"

namespace tracespec::project {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

v1::MethodRun Method(const std::string& name, v1::InferStatus status, bool vacuous) {
  v1::MethodRun m;
  m.set_method(name);
  m.set_status(v1::METHOD_RUN_INFERRED);
  m.set_infer_status(status);
  m.set_history("11");
  m.mutable_strength()->set_measured(true);
  m.mutable_strength()->set_vacuous(vacuous);
  m.mutable_strength()->set_summary(vacuous ? "pins \\result on 0/3 observations, rejects 0% of "
                                              "perturbed outcomes, says nothing about the outcome"
                                            : "pins \\result on 3/3 observations");
  return m;
}

TEST(RunSummaryTest, AContractThatSaysNothingIsNotCountedAsOneThatHolds) {
  v1::RunSummary s;
  AddMethodRun(Method("p.C#a()I", v1::INFER_SUCCESS, false), &s);
  AddMethodRun(Method("p.C#b()I", v1::INFER_SUCCESS, true), &s);
  AddMethodRun(Method("p.C#c()I", v1::INFER_FAIL, false), &s);
  v1::MethodRun unseen;
  unseen.set_method("p.C#d()I");
  unseen.set_status(v1::METHOD_RUN_NOT_OBSERVED);
  AddMethodRun(unseen, &s);
  EXPECT_EQ(s.succeeded(), 1);
  EXPECT_EQ(s.vacuous(), 1);
  EXPECT_EQ(s.not_succeeded(), 1);
  EXPECT_EQ(s.not_observed(), 1);
  std::string text = RunSummaryText("out", s);
  EXPECT_THAT(text, HasSubstr("p.C#b()I: Success 11 (rounds: 11) — pins \\result on 0/3 "
                              "observations, rejects 0% of perturbed outcomes, says nothing "
                              "about the outcome\n"));
  EXPECT_THAT(text, HasSubstr("4 methods: 1 with a contract that holds, 1 whose contract holds "
                              "but says nothing about the outcome, 1 without one, 1 not "
                              "observed\n"));
  // Without such a method the line is as before.
  v1::RunSummary plain;
  AddMethodRun(Method("p.C#a()I", v1::INFER_SUCCESS, false), &plain);
  EXPECT_THAT(RunSummaryText("out", plain),
              HasSubstr("1 methods: 1 with a contract that holds, 0 without one, 0 not observed\n"));
}

// Failing tests and contracts lost since the previous run are the last
// lines, each method with its line of this run, and what to do about the
// loss.
TEST(RunSummaryTest, FailingTestsAndLostContractsAreWarnedOfLast) {
  v1::RunSummary s;
  AddMethodRun(Method("p.C#a()I", v1::INFER_SUCCESS, false), &s);
  v1::MethodRun unseen;
  unseen.set_method("p.C#b()I");
  unseen.set_status(v1::METHOD_RUN_NOT_OBSERVED);
  unseen.set_reason("only failing tests called it (p.CTest#b)");
  AddMethodRun(unseen, &s);
  s.add_failed_tests("p.CTest#b: AssertionFailedError");
  s.add_contracts_lost("p.C#b()I");
  s.add_contracts_lost("p.C#gone()I");
  std::string text = RunSummaryText("out", s);
  EXPECT_THAT(text, ::testing::EndsWith(
                        "report: out/report.html (and report.md)\n"
                        "WARNING: 1 test failed:\n  p.CTest#b: AssertionFailedError\n"
                        "the contracts above were inferred from code the project's own tests "
                        "reject; `tracespec check` refuses them until the tests pass\n"
                        "WARNING: 2 methods had a contract in the previous run and have none now "
                        "(gone from out/specs):\n"
                        "  p.C#b()I: not observed (only failing tests called it (p.CTest#b))\n"
                        "  p.C#gone()I: no longer a target\n"
                        "`tracespec check` exits 3 on this run: fix the code and run `tracespec "
                        "run` again, or accept the loss with `tracespec run --accept-lost` "
                        "(`tracespec check --accept-lost` accepts it for one check only)\n"));
}

// A loss carried from an earlier run is warned of apart from those since
// the previous run; losses a run accepted are a note, not a warning.
TEST(RunSummaryTest, CarriedAndAcceptedLossesAreSaidApart) {
  v1::RunSummary s;
  AddMethodRun(Method("p.C#a()I", v1::INFER_SUCCESS, false), &s);
  AddMethodRun(Method("p.C#b()I", v1::INFER_FAIL, false), &s);
  s.add_contracts_lost("p.C#b()I");
  s.add_contracts_lost("p.C#gone()I");
  s.add_contracts_lost_carried("p.C#gone()I");
  std::string text = RunSummaryText("out", s);
  EXPECT_THAT(text, HasSubstr("WARNING: 1 method had a contract in the previous run and has none "
                              "now (gone from out/specs):\n  p.C#b()I: Fail"));
  EXPECT_THAT(text, HasSubstr("WARNING: 1 method lost its contract in an earlier run and still "
                              "has none (gone from out/specs; a loss is carried from run to run "
                              "until the method has a contract again or a run accepts it):\n"
                              "  p.C#gone()I: no longer a target\n"
                              "`tracespec check` exits 3 on this run"));
  EXPECT_THAT(text, Not(HasSubstr("accepted (--accept-lost)")));

  v1::RunSummary accepted;
  AddMethodRun(Method("p.C#b()I", v1::INFER_FAIL, false), &accepted);
  accepted.add_contracts_lost_accepted("p.C#b()I");
  accepted.add_contracts_lost_accepted("p.C#gone()I");
  text = RunSummaryText("out", accepted);
  EXPECT_THAT(text, Not(HasSubstr("WARNING")));
  EXPECT_THAT(text, Not(HasSubstr("exits 3")));
  EXPECT_THAT(text, ::testing::EndsWith(
                        "accepted (--accept-lost): 2 methods without the contract an earlier run "
                        "had (gone from out/specs), no longer carried to the next run:\n"
                        "  p.C#b()I: Fail 11 (rounds: 11) — pins \\result on 3/3 observations\n"
                        "  p.C#gone()I: no longer a target\n"));
}

}  // namespace
}  // namespace tracespec::project
