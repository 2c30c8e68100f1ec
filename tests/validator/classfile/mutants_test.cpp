// Bytecode mutants (classfile::MethodMutants) of classes compiled by the real
// javac: each operator's changes, ids and the cap, and every mutant loaded
// and run on the real JVM (-Xverify:all, one class loader per mutant) to
// show it verifies and computes what its change says.
#include "validator/classfile/mutants.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::classfile {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char* kSource = R"java(
package m;

public class Ops {
  int total;
  long big;
  static int calls;

  public static int add(int a, int b) {
    return a + b;
  }

  public static int scale(int a) {
    return a * 3 + 100;
  }

  public static long lsub(long a, long b) {
    return a - b + 1L;
  }

  public static double dmul(double a, double b) {
    return a * b;
  }

  public static int max(int a, int b) {
    if (a < b) {
      return b;
    }
    return a;
  }

  public static int stepSum(int n) {
    int s = 0;
    for (int i = n; i > 0; i -= 2) {
      s += i;
    }
    return s;
  }

  public void bump(int d) {
    total += d;
    calls++;
    big = 5L;
  }

  public int total() {
    return total;
  }

  public static String same(String s) {
    return s;
  }

  public static int twice(int a) {
    return 2 * a;
  }

  public static int twice(long a) {
    return (int) (2 * a);
  }

  public static String probe() {
    Ops o = new Ops();
    o.bump(4);
    return "add=" + add(2, 3) + " scale=" + scale(5) + " lsub=" + lsub(10, 4) + " dmul="
        + dmul(1.5, 4) + " max=" + max(3, 7) + "," + max(7, 3) + " stepSum=" + stepSum(5)
        + " total=" + o.total() + " field=" + o.total + " calls=" + calls + " big=" + o.big
        + " same=" + same("s");
  }
}
)java";

// Loads m.Ops from each directory in its own class loader, with the JVM
// verifying every class, and prints "<dir>\t<probe() or the error>".
const char* kHarness = R"java(
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;

public class Harness {
  public static void main(String[] args) throws Exception {
    for (String dir : args) {
      String out;
      try {
        URLClassLoader loader = new URLClassLoader(new URL[] {new File(dir).toURI().toURL()},
            ClassLoader.getPlatformClassLoader());
        Class<?> c = Class.forName("m.Ops", true, loader);
        out = String.valueOf(c.getMethod("probe").invoke(null));
      } catch (InvocationTargetException e) {
        out = "threw " + e.getCause();
      } catch (Throwable e) {
        out = "error " + e;
      }
      System.out.println(dir + "\t" + out);
    }
  }
}
)java";

const char* kOriginal =
    "add=5 scale=115 lsub=7 dmul=6.0 max=7,7 stepSum=9 total=4 field=4 calls=1 big=5 same=s";

class MutantsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    classes_ = new std::string(testing::CompileJava(*dir_, {{"m/Ops.java", kSource}}, {"-g"}));
    auto bytes = ReadFile(*classes_ + "/m/Ops.class");
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    bytes_ = new std::string(*bytes);
    testing::TempDir* harness_dir = new testing::TempDir();
    harness_ = new std::string(testing::CompileJava(*harness_dir, {{"Harness.java", kHarness}}));
    harness_dir_ = harness_dir;
  }
  static void TearDownTestSuite() {
    delete bytes_;
    delete classes_;
    delete harness_;
    delete harness_dir_;
    delete dir_;
  }

  static std::vector<Mutant> Of(const std::string& name, const std::string& descriptor = "") {
    auto result = MethodMutants(*bytes_, "Ops.class", name, descriptor, {/*max_mutants=*/0});
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok()) return {};
    return result->mutants;
  }

  // "kind: change" of each mutant, in order.
  static std::vector<std::string> Changes(const std::vector<Mutant>& mutants) {
    std::vector<std::string> out;
    for (const Mutant& m : mutants) out.push_back(absl::StrCat(m.kind, ": ", m.change));
    return out;
  }

  // probe()'s output with each mutant in place of m.Ops, by change (the
  // first mutant with that change), and the original's as "original".
  static std::map<std::string, std::string> Run(const std::vector<Mutant>& mutants) {
    testing::TempDir dir;
    std::vector<std::string> argv = {"java", "-Xverify:all", "-cp", *harness_, "Harness",
                                     *classes_};
    std::map<std::string, std::string> by_dir;
    for (size_t i = 0; i < mutants.size(); ++i) {
      std::string sub = absl::StrCat(dir.path(), "/", i);
      dir.Write(absl::StrCat(i, "/m/Ops.class"), mutants[i].bytes);
      argv.push_back(sub);
      by_dir[sub] = mutants[i].change;
    }
    absl::StatusOr<SubprocessResult> jvm = RunSubprocess(argv);
    EXPECT_TRUE(jvm.ok()) << jvm.status();
    if (!jvm.ok()) return {};
    EXPECT_EQ(jvm->exit_code, 0) << jvm->stderr_data;
    std::map<std::string, std::string> out;
    for (absl::string_view line : absl::StrSplit(jvm->stdout_data, '\n', absl::SkipEmpty())) {
      std::vector<std::string> parts = absl::StrSplit(line, absl::MaxSplits('\t', 1));
      if (parts.size() != 2) continue;
      if (parts[0] == *classes_) {
        out["original"] = parts[1];
      } else {
        out.emplace(by_dir[parts[0]], parts[1]);  // the first mutant of a change
      }
    }
    return out;
  }

  static testing::TempDir* dir_;
  static testing::TempDir* harness_dir_;
  static std::string* classes_;
  static std::string* bytes_;
  static std::string* harness_;
};

testing::TempDir* MutantsTest::dir_ = nullptr;
testing::TempDir* MutantsTest::harness_dir_ = nullptr;
std::string* MutantsTest::classes_ = nullptr;
std::string* MutantsTest::bytes_ = nullptr;
std::string* MutantsTest::harness_ = nullptr;

TEST_F(MutantsTest, ArithmeticSwapsRunOnTheJvm) {
  EXPECT_EQ(Changes(Of("add")),
            (std::vector<std::string>{"arithmetic: iadd -> isub"}));
  EXPECT_EQ(Changes(Of("scale")),
            (std::vector<std::string>{"constant: iconst_3 -> iconst_4",
                                      "constant: iconst_3 -> iconst_2",
                                      "constant: iconst_3 -> iconst_0",
                                      "arithmetic: imul -> iadd", "arithmetic: imul -> idiv",
                                      "constant: bipush 100 -> 101", "constant: bipush 100 -> 99",
                                      "constant: bipush 100 -> 0", "arithmetic: iadd -> isub"}));
  std::vector<Mutant> all = Of("add");
  for (const char* name : {"scale", "lsub", "dmul"}) {
    for (Mutant& m : Of(name)) all.push_back(m);
  }
  std::map<std::string, std::string> out = Run(all);
  EXPECT_EQ(out["original"], kOriginal);
  EXPECT_THAT(out["iadd -> isub"], HasSubstr("add=-1 "));
  EXPECT_THAT(out["imul -> iadd"], HasSubstr("scale=108 "));
  EXPECT_THAT(out["imul -> idiv"], HasSubstr("scale=101 "));
  EXPECT_THAT(out["iconst_3 -> iconst_4"], HasSubstr("scale=120 "));
  EXPECT_THAT(out["bipush 100 -> 0"], HasSubstr("scale=15 "));
  EXPECT_THAT(out["lsub -> ladd"], HasSubstr("lsub=15 "));
  EXPECT_THAT(out["lconst_1 -> lconst_0"], HasSubstr("lsub=6 "));
  EXPECT_THAT(out["dmul -> ddiv"], HasSubstr("dmul=0.375 "));
}

TEST_F(MutantsTest, BranchesAreNegatedAndTheirBoundariesMoved) {
  std::vector<Mutant> max = Of("max");
  EXPECT_EQ(Changes(max), (std::vector<std::string>{"negated branch: if_icmpge -> if_icmplt",
                                                    "relational: if_icmpge -> if_icmpgt",
                                                    "default return: iload_1; ireturn -> returns "
                                                    "the default",
                                                    "default return: iload_0; ireturn -> returns "
                                                    "the default"}));
  std::map<std::string, std::string> out = Run(max);
  EXPECT_THAT(out["if_icmpge -> if_icmplt"], HasSubstr("max=3,3 "));
  // a <= b instead of a < b: the same maximum on every input (equivalent).
  EXPECT_THAT(out["if_icmpge -> if_icmpgt"], HasSubstr("max=7,7 "));
}

TEST_F(MutantsTest, LoopStepsChangeButNeverStop) {
  std::vector<std::string> changes = Changes(Of("stepSum"));
  EXPECT_THAT(changes, ::testing::Contains("constant: iinc 2 -2 -> -1"));
  EXPECT_THAT(changes, ::testing::Contains("constant: iinc 2 -2 -> -3"));
  EXPECT_THAT(changes, ::testing::Contains("negated branch: ifle -> ifgt"));
  EXPECT_THAT(changes, ::testing::Contains("relational: ifle -> iflt"));
  std::map<std::string, std::string> out = Run(Of("stepSum"));
  EXPECT_THAT(out["iinc 2 -2 -> -1"], HasSubstr("stepSum=15 "));
  EXPECT_THAT(out["iinc 2 -2 -> -3"], HasSubstr("stepSum=7 "));
  EXPECT_THAT(out["ifle -> ifgt"], HasSubstr("stepSum=0 "));
  EXPECT_THAT(out["ifle -> iflt"], HasSubstr("stepSum=9 "));  // i = 0 adds 0
}

TEST_F(MutantsTest, FieldStoresAreRemoved) {
  std::vector<Mutant> bump = Of("bump");
  std::vector<std::string> changes = Changes(bump);
  EXPECT_THAT(changes, ::testing::Contains("removed field store: putfield total removed"));
  EXPECT_THAT(changes, ::testing::Contains("removed field store: putstatic calls removed"));
  EXPECT_THAT(changes, ::testing::Contains("removed field store: putfield big removed"));
  std::map<std::string, std::string> out = Run(bump);
  EXPECT_THAT(out["putfield total removed"], HasSubstr("total=0 field=0 calls=1 big=5 "));
  EXPECT_THAT(out["putstatic calls removed"], HasSubstr("total=4 field=4 calls=0 big=5 "));
  EXPECT_THAT(out["putfield big removed"], HasSubstr("calls=1 big=0 "));
}

TEST_F(MutantsTest, EachPatchIsOneMutant) {
  // calls++ pushes iconst_1: its n-1 and 0 are the same patch, one mutant.
  std::vector<std::string> changes = Changes(Of("bump"));
  EXPECT_EQ(std::count(changes.begin(), changes.end(), "constant: iconst_1 -> iconst_0"), 1);
  EXPECT_THAT(changes, ::testing::Contains("constant: iconst_1 -> iconst_2"));
  for (const char* name : {"add", "scale", "lsub", "dmul", "max", "stepSum", "bump", "total",
                           "same", "probe"}) {
    std::set<std::string> classes;
    for (const Mutant& m : Of(name)) {
      EXPECT_TRUE(classes.insert(m.bytes).second) << m.Label() << " repeats an earlier mutant";
    }
  }
}

TEST_F(MutantsTest, ReturnsAreReplacedByDefaults) {
  std::vector<Mutant> all = Of("total");
  for (Mutant& m : Of("same")) all.push_back(m);
  EXPECT_EQ(Changes(all),
            (std::vector<std::string>{"default return: getfield total; ireturn -> returns the "
                                      "default",
                                      "default return: aload_0; areturn -> returns the default"}));
  std::map<std::string, std::string> out = Run(all);
  EXPECT_THAT(out["getfield total; ireturn -> returns the default"], HasSubstr("total=0 field=4"));
  EXPECT_THAT(out["aload_0; areturn -> returns the default"], HasSubstr("same=null"));
}

TEST_F(MutantsTest, EveryMutantVerifiesAndChangesOnlyItsInstruction) {
  std::vector<Mutant> all;
  for (const char* name : {"add", "scale", "lsub", "dmul", "max", "stepSum", "bump", "total",
                           "same", "probe"}) {
    for (Mutant& m : Of(name)) all.push_back(m);
  }
  ASSERT_GT(all.size(), 40u);
  std::set<std::string> labels;
  for (const Mutant& m : all) {
    ASSERT_EQ(m.bytes.size(), bytes_->size()) << m.Label();
    size_t first = 0, last = 0;
    for (size_t i = 0; i < m.bytes.size(); ++i) {
      if (m.bytes[i] == (*bytes_)[i]) continue;
      if (first == 0) first = i;
      last = i;
    }
    EXPECT_NE(first, 0u) << m.Label() << " changes nothing";
    EXPECT_LT(last - first, 3u) << m.Label();
    labels.insert(m.Label());
  }
  EXPECT_EQ(labels.size(), all.size());
  // probe()'s own mutants are loaded too (string building, invokedynamic).
  testing::TempDir dir;
  std::vector<std::string> argv = {"java", "-Xverify:all", "-cp", *harness_, "Harness"};
  for (size_t i = 0; i < all.size(); ++i) {
    std::string sub = absl::StrCat(dir.path(), "/", i);
    dir.Write(absl::StrCat(i, "/m/Ops.class"), all[i].bytes);
    argv.push_back(sub);
  }
  absl::StatusOr<SubprocessResult> jvm = RunSubprocess(argv);
  ASSERT_TRUE(jvm.ok()) << jvm.status();
  EXPECT_EQ(jvm->exit_code, 0) << jvm->stderr_data;
  EXPECT_THAT(jvm->stdout_data, Not(HasSubstr("\terror ")));
  EXPECT_THAT(jvm->stdout_data, Not(HasSubstr("VerifyError")));
  EXPECT_EQ(static_cast<size_t>(std::count(jvm->stdout_data.begin(), jvm->stdout_data.end(), '\n')),
            all.size());
}

TEST_F(MutantsTest, IdsAreStableAndTheCapSpreadsTheSelection) {
  auto all = MethodMutants(*bytes_, "Ops.class", "probe", "", {/*max_mutants=*/0});
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_GT(all->generated, 4);
  EXPECT_EQ(all->mutants.front().id, "M01");
  auto capped = MethodMutants(*bytes_, "Ops.class", "probe", "", {/*max_mutants=*/4});
  ASSERT_TRUE(capped.ok()) << capped.status();
  EXPECT_EQ(capped->generated, all->generated);
  ASSERT_EQ(capped->mutants.size(), 4u);
  int n = all->generated;
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(capped->mutants[k].Label(), all->mutants[k * n / 4].Label());
  }
  auto again = MethodMutants(*bytes_, "Ops.class", "probe", "", {/*max_mutants=*/4});
  ASSERT_TRUE(again.ok());
  for (int k = 0; k < 4; ++k) EXPECT_EQ(again->mutants[k].bytes, capped->mutants[k].bytes);
  EXPECT_THAT(Of("add").front().Label(), ::testing::MatchesRegex("M01 iadd -> isub @pc 2 \\(line [0-9]+\\)"));
}

TEST_F(MutantsTest, UnknownAndOverloadedMethodsAreErrors) {
  auto missing = MethodMutants(*bytes_, "Ops.class", "nope", "");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("Ops.class has no method nope"));
  auto overloaded = MethodMutants(*bytes_, "Ops.class", "twice", "");
  EXPECT_EQ(overloaded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(overloaded.status().message()), HasSubstr("overloaded"));
  auto one = MethodMutants(*bytes_, "Ops.class", "twice", "(J)");
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_THAT(Changes(one->mutants), ::testing::Contains("arithmetic: lmul -> ladd"));
  auto garbage = MethodMutants("not a class", "x.class", "add", "");
  EXPECT_EQ(garbage.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tracespec::classfile
