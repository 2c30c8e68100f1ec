// Mutation analysis (strength::RunMutants) of a class compiled by the real
// javac, its real JUnit tests run on the real JVM and the contract checked
// by the real validator: a removed field store the tests miss and the
// contract kills, one both kill, tests not given, a contract that does not
// hold on the original, and the table's determinism.
#include "agent/strength/mutation.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::strength {
namespace {

using ::testing::HasSubstr;

const char* kCounter = R"java(
package k;

public class Counter {
  int count;
  int total;

  public void add(int d) {
    if (d < 0) {
      throw new IllegalArgumentException("negative");
    }
    count += 1;
    total += d;
  }

  public int count() {
    return count;
  }
}
)java";

// The tests look at the count only.
const char* kCounterTest = R"java(
package k;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CounterTest {
  @Test
  void countsEveryAdd() {
    Counter c = new Counter();
    c.add(5);
    c.add(0);
    assertEquals(2, c.count());
  }

  @Test
  void rejectsNegatives() {
    assertThrows(IllegalArgumentException.class, () -> new Counter().add(-1));
  }
}
)java";

const char* kContract =
    "//@ public normal_behavior\n"
    "//@   requires d >= 0;\n"
    "//@   assignable count, total;\n"
    "//@   ensures count == \\old(count) + 1;\n"
    "//@   ensures total == \\old(total) + d;\n"
    "//@ also\n"
    "//@ public exceptional_behavior\n"
    "//@   requires d < 0;\n"
    "//@   assignable \\nothing;\n"
    "//@   signals_only IllegalArgumentException;\n";

class MutantRunTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    classes_ = new std::string(testing::CompileJava(*dir_, {{"k/Counter.java", kCounter}}, {"-g"}));
    testing::TempDir* tests_dir = new testing::TempDir();
    tests_dir_ = tests_dir;
    test_classes_ = new std::string(
        testing::CompileJava(*tests_dir, {{"k/CounterTest.java", kCounterTest}}, {"-g"},
                             absl::StrCat(*classes_, ":", testing::JunitJar())));
  }
  static void TearDownTestSuite() {
    delete classes_;
    delete test_classes_;
    delete tests_dir_;
    delete dir_;
  }

  static MutantRunOptions Options(const std::string& contract, bool with_tests) {
    MutantRunOptions options;
    options.method = "k.Counter#add(I)V";
    options.classpath = *classes_;
    options.contract = contract;
    if (with_tests) {
      options.test_classpath = absl::StrCat(*classes_, ":", *test_classes_);
      options.test_classes = {"k.CounterTest"};
    }
    return options;
  }

  static const MutantOutcome* Find(const MutantResult& r, const std::string& change) {
    for (const MutantOutcome& m : r.mutants) {
      if (m.label.find(change) != std::string::npos) return &m;
    }
    return nullptr;
  }

  static testing::TempDir* dir_;
  static testing::TempDir* tests_dir_;
  static std::string* classes_;
  static std::string* test_classes_;
};

testing::TempDir* MutantRunTest::dir_ = nullptr;
testing::TempDir* MutantRunTest::tests_dir_ = nullptr;
std::string* MutantRunTest::classes_ = nullptr;
std::string* MutantRunTest::test_classes_ = nullptr;

TEST_F(MutantRunTest, TheContractKillsTheStoreTheTestsMiss) {
  std::vector<std::string> lines;
  MutantRunOptions options = Options(kContract, /*with_tests=*/true);
  options.progress = [&lines](const std::string& line) { lines.push_back(line); };
  absl::StatusOr<MutantResult> r = RunMutants(options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->tests_run) << r->tests_note;
  EXPECT_TRUE(r->contract_checked) << r->contract_note;
  ASSERT_EQ(static_cast<int>(r->mutants.size()), r->generated);

  const MutantOutcome* total = Find(*r, "putfield total removed");
  ASSERT_NE(total, nullptr);
  EXPECT_FALSE(total->killed_by_tests) << total->tests_evidence;
  EXPECT_TRUE(total->killed_by_contract) << total->contract_evidence;
  EXPECT_THAT(total->contract_evidence, HasSubstr("total"));

  const MutantOutcome* count = Find(*r, "putfield count removed");
  ASSERT_NE(count, nullptr);
  EXPECT_TRUE(count->killed_by_tests);
  EXPECT_EQ(count->tests_evidence, "k.CounterTest#countsEveryAdd");
  EXPECT_TRUE(count->killed_by_contract) << count->contract_evidence;

  const MutantOutcome* negated = Find(*r, "ifge -> iflt");
  ASSERT_NE(negated, nullptr);
  EXPECT_TRUE(negated->killed_by_tests);

  // The counts add up.
  int n = static_cast<int>(r->mutants.size());
  EXPECT_EQ(r->killed_by_both + r->contract_only + r->tests_only + r->survived, n);
  EXPECT_EQ(r->killed_by_tests, r->killed_by_both + r->tests_only);
  EXPECT_EQ(r->killed_by_contract, r->killed_by_both + r->contract_only);
  EXPECT_GE(r->contract_only, 1);
  ASSERT_NE(r->ContractOnlyExample(), nullptr);

  std::string table = FormatMutantTable({{options.method, *r}});
  EXPECT_THAT(table, HasSubstr("method  "));
  EXPECT_THAT(table, HasSubstr("contract-only"));
  EXPECT_THAT(table, HasSubstr(absl::StrCat("k.Counter#add(I)V: ", n, " mutants: tests kill ")));
  EXPECT_THAT(table, HasSubstr("  contract only: M"));
  EXPECT_THAT(table, HasSubstr("equivalence is not checked"));
  // Progress: the original, then one line per mutant, each naming the
  // method.
  ASSERT_EQ(lines.size(), r->mutants.size() + 2);
  EXPECT_THAT(lines.back(), HasSubstr(absl::StrCat("(", n, "/", n, "): ")));
  for (const std::string& line : lines) {
    EXPECT_THAT(line, ::testing::StartsWith("k.Counter#add(int): "));
  }
}

TEST_F(MutantRunTest, WithoutTestsOnlyTheContractJudgesAndTheTableIsStable) {
  absl::StatusOr<MutantResult> r = RunMutants(Options(kContract, /*with_tests=*/false));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->tests_run);
  EXPECT_EQ(r->tests_note, "no tests given");
  EXPECT_EQ(r->killed_by_tests, 0);
  EXPECT_EQ(r->ContractOnlyExample(), nullptr);
  EXPECT_THAT(r->Summary(), HasSubstr("tests not run, contract kills "));
  std::string table = FormatMutantTable({{"k.Counter#add(I)V", *r}});
  EXPECT_THAT(table, HasSubstr("  tests: no tests given\n"));
  absl::StatusOr<MutantResult> again = RunMutants(Options(kContract, /*with_tests=*/false));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(FormatMutantTable({{"k.Counter#add(I)V", *again}}), table);
}

TEST_F(MutantRunTest, AContractBrokenOnTheOriginalKillsNothing) {
  MutantRunOptions options = Options(
      "//@ requires d >= 0;\n//@ ensures total == \\old(total) + d + 1;\n", /*with_tests=*/false);
  options.max_mutants = 3;
  absl::StatusOr<MutantResult> r = RunMutants(options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->contract_checked);
  EXPECT_THAT(r->contract_note, HasSubstr("does not pass consistency on the original (FAIL"));
  EXPECT_EQ(r->killed_by_contract, 0);
  EXPECT_EQ(r->mutants.size(), 3u);
  EXPECT_LT(3, r->generated);
  EXPECT_EQ(r->survived, 3);
  EXPECT_THAT(r->Summary(), HasSubstr(absl::StrCat("3 mutants (of ", r->generated, ")")));
}

TEST_F(MutantRunTest, BadInputIsAnError) {
  MutantRunOptions options = Options(kContract, /*with_tests=*/true);
  options.test_classes = {"k.NoSuchTest"};
  absl::StatusOr<MutantResult> r = RunMutants(options);
  EXPECT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("k.NoSuchTest"));
  options = Options(kContract, /*with_tests=*/false);
  options.method = "k.Counter#nope";
  r = RunMutants(options);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tracespec::strength
