// project/check_guard.h's comparisons of run.json with what a check or a
// new run sees: contracts lost between runs, target methods not covered,
// failing tests refused. (The files under specs/ and the stale-source
// check are exercised end to end in tests/e2e/run_test.cpp.)
#include "project/check_guard.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec::project {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

v1::RunSummary Summary(const std::vector<std::pair<std::string, bool>>& methods) {
  v1::RunSummary s;
  for (const auto& [name, with_contract] : methods) {
    v1::MethodRun* m = s.add_methods();
    m->set_method(name);
    if (with_contract) m->set_spec_file("specs/p/C.jml");
  }
  return s;
}

TEST(CheckGuardTest, LostContractsAreThoseThePreviousRunHadAndThisOneHasNot) {
  v1::RunSummary previous = Summary({{"p.C#a()I", true}, {"p.C#b()I", true}, {"p.C#c()I", false},
                                     {"p.C#gone()I", true}});
  v1::RunSummary now = Summary({{"p.C#a()I", true}, {"p.C#b()I", false}, {"p.C#c()I", true}});
  EXPECT_THAT(LostContracts(previous, now), ElementsAre("p.C#b()I", "p.C#gone()I"));
  EXPECT_TRUE(LostContracts(now, now).empty());
  EXPECT_TRUE(LostContracts(v1::RunSummary(), now).empty());
}

TEST(CheckGuardTest, UncoveredTargetsAreThoseWithoutAContractThenThoseAdded) {
  v1::RunSummary run = Summary({{"p.C#z()I", false}, {"p.C#a()I", true}, {"p.C#old()I", false}});
  std::vector<UncoveredTarget> uncovered =
      UncoveredTargets({"p.C#a()I", "p.C#new2()I", "p.C#z()I", "p.C#new1()I"}, run);
  ASSERT_EQ(uncovered.size(), 3u);
  EXPECT_EQ(uncovered[0].method, "p.C#z()I");
  ASSERT_NE(uncovered[0].run, nullptr);
  EXPECT_EQ(uncovered[0].run->method(), "p.C#z()I");
  EXPECT_EQ(uncovered[1].method, "p.C#new1()I");
  EXPECT_EQ(uncovered[1].run, nullptr);
  EXPECT_EQ(uncovered[2].method, "p.C#new2()I");
  EXPECT_EQ(uncovered[2].run, nullptr);
}

TEST(CheckGuardTest, FailingTestsOfTheRunAreRefusedByName) {
  v1::RunSummary run = Summary({{"p.C#a()I", true}});
  EXPECT_TRUE(RefuseFailedTests("out", run).ok());
  run.add_failed_tests("p.CTest#a: AssertionFailedError");
  run.add_failed_tests("p.CTest#b: NullPointerException");
  absl::Status refused = RefuseFailedTests("out", run);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.message(),
              HasSubstr("(out/run.json) recorded 2 failing tests:\n  p.CTest#a: "
                        "AssertionFailedError\n  p.CTest#b: NullPointerException\n"));
}

}  // namespace
}  // namespace tracespec::project
