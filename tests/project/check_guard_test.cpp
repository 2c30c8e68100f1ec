// project/check_guard.h's comparisons of run.json with what a check or a
// new run sees: contracts lost between runs, target methods not covered,
// failing tests refused; the object invariants of the files under specs/
// against run.json's. (The contracts under specs/ and the stale-source
// check are exercised end to end in tests/e2e/run_test.cpp.)
#include "project/check_guard.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

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
  EXPECT_THAT(LostContracts(previous, now).since_previous, ElementsAre("p.C#b()I", "p.C#gone()I"));
  EXPECT_TRUE(LostContracts(previous, now).carried.empty());
  EXPECT_TRUE(LostContracts(now, now).since_previous.empty());
  EXPECT_TRUE(LostContracts(v1::RunSummary(), now).since_previous.empty());
}

// A loss the previous run recorded (and did not accept) is carried while
// the method still has no contract, whether or not it is still a target;
// a method with a contract again is no longer lost.
TEST(CheckGuardTest, ALossIsCarriedUntilTheMethodHasAContractAgain) {
  v1::RunSummary previous = Summary({{"p.C#a()I", false}, {"p.C#b()I", false}, {"p.C#c()I", true}});
  previous.add_contracts_lost("p.C#a()I");
  previous.add_contracts_lost("p.C#b()I");
  previous.add_contracts_lost("p.C#gone()I");
  previous.add_contracts_lost_accepted("p.C#accepted()I");
  v1::RunSummary now = Summary({{"p.C#a()I", true}, {"p.C#b()I", false}, {"p.C#c()I", false}});
  Losses losses = LostContracts(previous, now);
  EXPECT_THAT(losses.since_previous, ElementsAre("p.C#c()I"));
  EXPECT_THAT(losses.carried, ElementsAre("p.C#b()I", "p.C#gone()I"));
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

// The invariants a file states are compared with run.json's as parsed JML
// (layout does not count): one the file adds is edited, one it dropped is
// removed; a class whose file states none has all of run.json's removed.
// A static invariant is not one of the object's (the validator does not
// assume it).
TEST(CheckGuardTest, StoredInvariantsAreTheFilesComparedWithRunJson) {
  testing::TempDir dir;
  dir.Write("specs/p/C.jml",
            "package p;\npublic class C {\n  private /*@ spec_public @*/ int n;\n"
            "  //@ public invariant n>=0;\n"
            "  //@ public invariant n <= 10;\n"
            "  //@ public static invariant true;\n"
            "  //@ ensures \\result == n;\n  public int get();\n}\n");
  dir.Write("specs/p/D.jml", "package p;\npublic class D {\n  //@ ensures true;\n  public void f();\n}\n");
  v1::RunSummary run;
  run.add_spec_files("specs/p/C.jml");
  run.add_spec_files("specs/p/D.jml");
  v1::MethodRun* get = run.add_methods();
  get->set_method("p.C#get()I");
  get->set_spec_file("specs/p/C.jml");
  v1::MethodRun* f = run.add_methods();
  f->set_method("p.D#f()V");
  f->set_spec_file("specs/p/D.jml");
  v1::ClassInvariants* c = run.add_class_invariants();
  c->set_class_name("p.C");
  c->add_invariants("n >= 0");
  c->add_invariants("n < items");
  v1::ClassInvariants* d = run.add_class_invariants();
  d->set_class_name("p.D");
  d->add_invariants("m != null");
  absl::StatusOr<StoredSpecs> specs = ReadStoredSpecs(dir.path(), run);
  ASSERT_TRUE(specs.ok()) << specs.status();
  EXPECT_EQ(specs->contracts.size(), 2u);
  ASSERT_EQ(specs->invariants.size(), 2u);
  const StoredClassInvariants& in_c = specs->invariants[0];
  EXPECT_EQ(in_c.class_name, "p.C");
  EXPECT_EQ(in_c.spec_file, "specs/p/C.jml");
  ASSERT_EQ(in_c.invariants.size(), 2u);
  EXPECT_EQ(in_c.invariants[0].text, "n >= 0");
  EXPECT_EQ(in_c.invariants[0].line, 4);
  EXPECT_FALSE(in_c.invariants[0].edited);
  EXPECT_EQ(in_c.invariants[1].text, "n <= 10");
  EXPECT_EQ(in_c.invariants[1].line, 5);
  EXPECT_TRUE(in_c.invariants[1].edited);
  EXPECT_THAT(in_c.removed, ElementsAre("n < items"));
  const StoredClassInvariants& in_d = specs->invariants[1];
  EXPECT_EQ(in_d.class_name, "p.D");
  EXPECT_TRUE(in_d.invariants.empty());
  EXPECT_THAT(in_d.removed, ElementsAre("m != null"));
}

}  // namespace
}  // namespace tracespec::project
