// The rough edges a new user hits, end to end with the real binary, javac,
// JVM, probe and Z3, on a small shop project compiled here: exit statuses
// from one table, one message per error, Java-style method signatures.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kStats[] = R"(package shop;
public class Stats {
  public static int max(int[] a) {
    int m = a[0];
    for (int i = 1; i < a.length; i++) if (a[i] > m) m = a[i];
    return m;
  }
  public static int max(int a, int b) { return a > b ? a : b; }
  public static String greet(String s, int n) { return s + n; }
  public static int never(int x) { return x + 1; }
}
)";

constexpr char kCart[] = R"(package shop;
public class Cart {
  private int total;
  public Cart() { total = 0; }
  public void add(int price) {
    if (price < 0) throw new IllegalArgumentException("negative");
    total += price;
  }
  public int total() { return total; }
}
)";

constexpr char kCartTest[] = R"(package shop;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
public class CartTest {
  @Test void adds() { Cart c = new Cart(); c.add(3); c.add(4); assertEquals(7, c.total()); }
  @Test void negative() {
    Cart c = new Cart();
    assertThrows(IllegalArgumentException.class, () -> c.add(-1));
  }
}
)";

constexpr char kStatsTest[] = R"(package shop;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
public class StatsTest {
  @Test void max() {
    assertEquals(5, Stats.max(new int[] {1, 5, 2}));
    assertEquals(1, Stats.max(new int[] {1}));
    assertEquals(2, Stats.max(1, 2));
  }
  @Test void greet() { assertEquals("a1", Stats.greet("a", 1)); }
}
)";

constexpr char kMaxContract[] =
    "//@ requires a != null && a.length >= 1;\n"
    "//@ ensures (\\forall int i; 0 <= i && i < a.length; \\result >= a[i]);\n";

class EdgesTest : public ::testing::Test {
 protected:
  // One compiled shop project (main classes and tests in one directory) and
  // one observe run of all its methods, shared by the suite.
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    classes_ = testing::CompileJava(
        *dir_,
        {{"shop/Stats.java", kStats},
         {"shop/Cart.java", kCart},
         {"shop/CartTest.java", kCartTest},
         {"shop/StatsTest.java", kStatsTest}},
        {"-g"}, testing::JunitJar());
    src_ = dir_->Write("src/shop/CartTest.java", kCartTest);
    dir_->Write("src/shop/StatsTest.java", kStatsTest);
    src_ = dir_->path() + "/src";
    observations_ = dir_->path() + "/obs";
    SubprocessResult r = testing::RunTracespec(
        {"observe", "--classpath", classes_, "--tests", "shop.CartTest,shop.StatsTest",
         "--method", "shop.Cart#<init>", "--method", "shop.Cart#add", "--method",
         "shop.Stats#max(int[])", "--method", "shop.Stats#greet(String, int)", "--out",
         observations_});
    ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  }
  static void TearDownTestSuite() { delete dir_; }

  SubprocessResult Run(std::vector<std::string> args) { return testing::RunTracespec(args); }

  std::string Contract(const std::string& text) { return local_.Write("contract.txt", text); }

  static testing::TempDir* dir_;
  static std::string classes_;
  static std::string src_;
  static std::string observations_;
  testing::TempDir local_;
};

testing::TempDir* EdgesTest::dir_ = nullptr;
std::string EdgesTest::classes_;
std::string EdgesTest::src_;
std::string EdgesTest::observations_;

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) {
    ++n;
  }
  return n;
}

// --- One table of exit statuses. -------------------------------------------

TEST_F(EdgesTest, EveryHelpFooterListsTheSameExitStatuses) {
  const std::vector<std::vector<std::string>> commands = {
      {},          {"observe"}, {"infer"},   {"validate"},          {"verify"},
      {"ctl"},     {"audit"},   {"audit", "verify"}, {"audit", "show"}, {"audit", "public-key"}, {"protocol"},
      {"report"},  {"run"},     {"check"},
      {"protocol", "mine"},     {"protocol", "explore"}};
  for (std::vector<std::string> command : commands) {
    std::string name = absl::StrJoin(command, " ");
    command.push_back("--help");
    SubprocessResult help = Run(command);
    EXPECT_EQ(help.exit_code, 0) << name;
    // CLI11 wraps nothing: the footer is one line.
    std::string footer;
    for (absl::string_view line : absl::StrSplit(help.stdout_data, '\n')) {
      if (absl::StartsWith(line, "Exit status: ")) footer = std::string(line);
    }
    ASSERT_FALSE(footer.empty()) << name << "\n" << help.stdout_data;
    EXPECT_TRUE(absl::StartsWith(footer, "Exit status: 0 success")) << name << ": " << footer;
    for (const char* row : {", 2 bad usage", ", 3 bad input", ", 4 environment",
                            ", 5 internal error"}) {
      EXPECT_THAT(footer, HasSubstr(row)) << name;
    }
  }
  SubprocessResult verify = Run({"verify", "--help"});
  EXPECT_THAT(verify.stdout_data, HasSubstr("0 success (VERIFICATION SUCCESSFUL)"));
  EXPECT_THAT(verify.stdout_data,
              HasSubstr("10 a check found a violation (VERIFICATION FAILED)"));
  EXPECT_THAT(verify.stdout_data, HasSubstr("11 a check could not decide (UNKNOWN)"));
  SubprocessResult check = Run({"check", "--help"});
  EXPECT_THAT(check.stdout_data, HasSubstr(", 10 a check found a violation (some contract is broken: a clause fails"));
  EXPECT_THAT(check.stdout_data, HasSubstr(", 11 a check could not decide (none broken but some"));
  SubprocessResult run = Run({"run", "--help"});
  EXPECT_THAT(run.stdout_data, HasSubstr("Exit status: 0 success (the run completed; methods"));
  EXPECT_THAT(run.stdout_data, Not(HasSubstr("10 a check")));
  EXPECT_THAT(run.stdout_data, HasSubstr(", 130 interrupted (Ctrl-C or SIGTERM"));
  // check is interrupted only during the build command it runs.
  EXPECT_THAT(check.stdout_data,
              HasSubstr(", 130 interrupted (Ctrl-C or SIGTERM during the build command"));
  // observe has no check: 10 and 11 are not among its statuses.
  SubprocessResult observe = Run({"observe", "--help"});
  EXPECT_THAT(observe.stdout_data, Not(HasSubstr("10 a check")));
}

// -q and -v are global flags, and work after the subcommand as before it:
// -q leaves only results and errors, -v adds the solver's lines.
TEST_F(EdgesTest, GlobalFlagsWorkAfterTheSubcommand) {
  std::string contract = Contract(kMaxContract);
  std::vector<std::string> validate = {"validate", "--classpath", classes_, "--method",
                                       "shop.Stats#max([I)I", "--contract", contract};
  for (const char* flag : {"-q", "--quiet", "-v", "--verbose"}) {
    std::vector<std::string> before = {flag};
    before.insert(before.end(), validate.begin(), validate.end());
    std::vector<std::string> after = validate;
    after.push_back(flag);
    SubprocessResult b = Run(before), a = Run(after);
    EXPECT_EQ(a.exit_code, 0) << flag << "\n" << a.stderr_data;
    EXPECT_EQ(b.exit_code, 0) << flag << "\n" << b.stderr_data;
    bool verbose = std::string(flag).find('v') != std::string::npos;
    for (const SubprocessResult* r : {&a, &b}) {
      EXPECT_THAT(r->stdout_data, HasSubstr("consistency: "));
      if (verbose) {
        EXPECT_THAT(r->stderr_data, HasSubstr("tracespec: solver: ")) << flag;
      } else {
        EXPECT_EQ(r->stderr_data, "") << flag;
      }
    }
  }
  SubprocessResult normal = Run(validate);
  EXPECT_THAT(normal.stderr_data, Not(HasSubstr("tracespec: solver: ")));
}

TEST_F(EdgesTest, BoundsOutOfRangeAreBadUsage) {
  std::string contract = Contract(kMaxContract);
  for (const char* unwind : {"0", "-1", "2000000"}) {
    SubprocessResult r = Run({"validate", "--classpath", classes_, "--method", "shop.Stats#max([I)I",
                              "--contract", contract, "--unwind", unwind});
    EXPECT_EQ(r.exit_code, 2) << unwind << r.stderr_data;
    EXPECT_THAT(r.stderr_data, HasSubstr("--unwind")) << unwind;
  }
  EXPECT_EQ(Run({"validate", "--classpath", classes_, "--method", "shop.Stats#max([I)I",
                 "--contract", contract, "--max-array", "-1"})
                .exit_code,
            2);
  EXPECT_EQ(Run({"validate", "--classpath", classes_, "--method", "shop.Stats#max([I)I",
                 "--contract", contract, "--timeout", "0"})
                .exit_code,
            2);
  EXPECT_EQ(Run({"verify", "--classpath", classes_, "--class", "shop.Stats", "--method",
                 "never", "--unwind", "0"})
                .exit_code,
            2);
  EXPECT_EQ(Run({"infer", "--classpath", classes_, "--method", "shop.Stats#max([I)I",
                 "--observations", observations_, "--out", local_.path() + "/inf", "--unwind",
                 "-3"})
                .exit_code,
            2);
  EXPECT_EQ(Run({"infer", "--classpath", classes_, "--method", "shop.Stats#max([I)I",
                 "--observations", observations_, "--out", local_.path() + "/inf", "--rounds",
                 "0"})
                .exit_code,
            2);
}

TEST_F(EdgesTest, AuditVerifyOfAFileThatIsNoAuditLogIsBadInput) {
  std::string file = local_.Write("notes.txt", "garbage\nmore garbage\n");
  SubprocessResult r = Run({"audit", "verify", file});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("notes.txt: not an audit log"));
  EXPECT_THAT(r.stdout_data, Not(HasSubstr("BROKEN")));
  SubprocessResult show = Run({"audit", "show", file});
  EXPECT_EQ(show.exit_code, 3) << show.stdout_data << show.stderr_data;
}

TEST_F(EdgesTest, ObserveOfACorruptClassIsBadInput) {
  testing::TempDir bad;
  std::string classes = testing::CompileJava(
      bad, {{"shop/Cart.java", kCart}, {"shop/CartTest.java", kCartTest}}, {"-g"},
      testing::JunitJar());
  ASSERT_TRUE(WriteFileAtomic(classes + "/shop/Cart.class", "garbage, not a class").ok());
  SubprocessResult r = Run({"observe", "--classpath", classes, "--tests", "shop.CartTest",
                            "--method", "shop.Cart#add", "--out", bad.path() + "/obs"});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("cannot read class shop/Cart"));
  EXPECT_THAT(r.stderr_data, HasSubstr("corrupt class file on --classpath"));
}

// --- One message per error. -------------------------------------------------

TEST_F(EdgesTest, AnUnknownMethodIsReportedOnce) {
  SubprocessResult r = Run({"infer", "--classpath", classes_, "--method", "shop.Stats#maxx",
                            "--observations", observations_, "--out", local_.path() + "/inf"});
  EXPECT_EQ(r.exit_code, 3) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, Not(HasSubstr("shop.Stats#maxx: shop.Stats#maxx")));
  EXPECT_EQ(Count(r.stderr_data, "declares no method maxx"), 1) << r.stderr_data;
  EXPECT_THAT(r.stderr_data,
              HasSubstr("tracespec: error: shop.Stats#maxx: class shop.Stats"));
}

// Bad input is found before anything is written: an unknown test class
// before any JVM runs, an unknown method (even next to a good one) before
// any method is inferred; the output directory is not made.
TEST_F(EdgesTest, BadInputWritesNothing) {
  std::string obs = local_.path() + "/obs-bad";
  SubprocessResult o = Run({"observe", "--classpath", classes_, "--tests",
                            "shop.StatsTest,shop.NoSuchTest", "--method", "shop.Stats#max",
                            "--out", obs});
  EXPECT_EQ(o.exit_code, 3) << o.stdout_data << o.stderr_data;
  EXPECT_THAT(o.stderr_data, HasSubstr("test class 'shop.NoSuchTest' was not found on the "
                                       "class path"));
  EXPECT_THAT(o.stderr_data, Not(HasSubstr("running ")));
  EXPECT_FALSE(FileExists(obs));

  std::string inf = local_.path() + "/inf-bad";
  SubprocessResult i = Run({"infer", "--classpath", classes_, "--method", "shop.Stats#max(int[])",
                            "--method", "shop.Stats#maxx", "--observations", observations_,
                            "--out", inf});
  EXPECT_EQ(i.exit_code, 3) << i.stdout_data << i.stderr_data;
  EXPECT_THAT(i.stderr_data, HasSubstr("shop.Stats#maxx: class shop.Stats"));
  EXPECT_THAT(i.stdout_data, Not(HasSubstr("Success")));
  EXPECT_FALSE(FileExists(inf));
}

TEST_F(EdgesTest, AJmlSyntaxErrorPrintsNoVerdict) {
  SubprocessResult r = Run({"validate", "--classpath", classes_, "--method", "shop.Stats#max([I)I",
                            "--contract", Contract("//@ requires a != ;\n")});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.stdout_data, Not(HasSubstr("result:")));
  EXPECT_EQ(Count(r.stdout_data + r.stderr_data, "expected an expression"), 1)
      << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("contract.txt:1:19: expected an expression"));
}

// --- Java-style signatures. -------------------------------------------------

TEST_F(EdgesTest, JavaSignaturesAreAcceptedEverywhere) {
  // observe took 'shop.Stats#max(int[])' and 'shop.Stats#greet(String, int)'
  // (SetUpTestSuite): the int[] overload only.
  std::string summary = ReadFile(observations_ + "/summary.json").value_or("");
  EXPECT_THAT(summary, HasSubstr("shop.Stats#max([I)I"));
  EXPECT_THAT(summary, Not(HasSubstr("shop.Stats#max(II)I")));
  EXPECT_THAT(summary, HasSubstr("shop.Stats#greet(Ljava/lang/String;I)Ljava/lang/String;"));

  std::string contract = Contract(kMaxContract);
  for (const char* method : {"shop.Stats#max(int[])", "shop.Stats#max([I)I", "shop.Stats#max([I)"}) {
    SubprocessResult r = Run({"validate", "--classpath", classes_, "--method", method,
                              "--contract", contract, "--observations",
                              observations_ + "/observations.pb"});
    EXPECT_THAT(r.stdout_data, HasSubstr("method: shop.Stats#max([I)I")) << method << r.stderr_data;
  }
  SubprocessResult greet =
      Run({"validate", "--classpath", classes_, "--method",
           "shop.Stats#greet(java.lang.String, int)", "--contract",
           Contract("//@ ensures \\result != null;\n")});
  EXPECT_EQ(greet.exit_code, 0) << greet.stdout_data << greet.stderr_data;

  SubprocessResult verify = Run({"verify", "--classpath", classes_, "--class", "shop.Stats",
                                 "--method", "max(int, int)", "--property",
                                 "no-runtime-exception"});
  EXPECT_EQ(verify.exit_code, 0) << verify.stdout_data << verify.stderr_data;

  SubprocessResult infer =
      Run({"infer", "--classpath", classes_, "--method", "shop.Stats#greet(String, int)",
           "--observations", observations_, "--out", local_.path() + "/inf"});
  EXPECT_THAT(infer.stdout_data, HasSubstr("shop.Stats#greet(String, int): "))
      << infer.stdout_data << infer.stderr_data;
  EXPECT_THAT(infer.stderr_data, Not(HasSubstr("error")));

  SubprocessResult bad = Run({"validate", "--classpath", classes_, "--method",
                              "shop.Stats#max(int[]", "--contract", contract});
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_THAT(bad.stderr_data, HasSubstr("')' is missing"));
}

// --- validate picks the method's observations out of an observe directory. --

TEST_F(EdgesTest, ValidateTakesTheMethodsObservationsFromAMultiMethodDirectory) {
  SubprocessResult r = Run({"validate", "--classpath", classes_, "--method", "shop.Cart#add",
                            "--contract", Contract("//@ requires price >= 0;\n//@ also\n"
                                                   "//@ requires price < 0;\n"
                                                   "//@ signals_only IllegalArgumentException;\n"),
                            "--observations", observations_});
  EXPECT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("coverage: PASS (3 of 3 observations admitted"));
  // None of the given observations is of the method: bad input, named.
  SubprocessResult none = Run({"validate", "--classpath", classes_, "--method",
                               "shop.Stats#max(II)I", "--contract", Contract(kMaxContract),
                               "--observations", observations_});
  EXPECT_EQ(none.exit_code, 3) << none.stdout_data << none.stderr_data;
  EXPECT_THAT(none.stderr_data, HasSubstr("no observation of shop.Stats#max(II)I among the"));
}

// --- A target the tests never call. -----------------------------------------

TEST_F(EdgesTest, ATargetTheTestsNeverCallIsListedWithAWarning) {
  std::string out = local_.path() + "/obs";
  SubprocessResult r = Run({"observe", "--classpath", classes_, "--tests", "shop.StatsTest",
                            "--method", "shop.Stats#max(int[])", "--method", "shop.Stats#never",
                            "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("shop.Stats#never(I)I  0  WARNING: never called by the tests"));
  std::string summary = ReadFile(out + "/summary.json").value_or("");
  EXPECT_THAT(summary, HasSubstr("\"method\": \"shop.Stats#never(I)I\""));
  EXPECT_THAT(summary, HasSubstr("\"warning\": \"never called by the tests\""));
  SubprocessResult infer = Run({"infer", "--classpath", classes_, "--method", "shop.Stats#never",
                                "--observations", out, "--out", local_.path() + "/inf"});
  EXPECT_EQ(infer.exit_code, 3);
  EXPECT_THAT(infer.stderr_data, HasSubstr("the tests never call shop.Stats#never(I)I"));
}

// --- Test globs. -------------------------------------------------------------

TEST_F(EdgesTest, TestGlobsStandForTheJunitTestClassesTheyMatch) {
  std::string out = local_.path() + "/obs";
  // 'shop.*' matches Cart and Stats too, which hold no tests: left out.
  SubprocessResult r = Run({"observe", "--classpath", classes_, "--tests", "shop.*", "--method",
                            "shop.Cart#add", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stderr_data, HasSubstr("running shop.CartTest, shop.StatsTest under the probe"));
  std::string summary = ReadFile(out + "/summary.json").value_or("");
  EXPECT_THAT(summary, HasSubstr("\"test_classes\": [\n  \"shop.CartTest\",\n  \"shop.StatsTest\"\n ]"))
      << summary;
  // A name and a glob: the name first, then the glob's classes, each once.
  SubprocessResult mixed = Run({"observe", "--classpath", classes_, "--tests",
                                "shop.StatsTest,shop.*Test", "--method", "shop.Cart#add",
                                "--out", out});
  ASSERT_EQ(mixed.exit_code, 0) << mixed.stderr_data;
  EXPECT_THAT(mixed.stderr_data, HasSubstr("running shop.StatsTest, shop.CartTest under"));
  // A glob that matches no test class: bad input before any JVM runs.
  SubprocessResult none = Run({"observe", "--classpath", classes_, "--tests", "shop.*Tezt",
                               "--method", "shop.Cart#add", "--out", local_.path() + "/none"});
  EXPECT_EQ(none.exit_code, 3) << none.stdout_data << none.stderr_data;
  EXPECT_THAT(none.stderr_data, HasSubstr("tracespec: error: --tests 'shop.*Tezt' matches no "
                                          "JUnit test class on " + classes_));
  EXPECT_FALSE(FileExists(local_.path() + "/none/summary.json"));
}

// --- Re-running infer on a subset. -----------------------------------------

TEST_F(EdgesTest, InferOnASubsetKeepsTheOtherMethodsResults) {
  std::string out = local_.path() + "/inf";
  auto infer = [&](const std::string& method) {
    return Run({"infer", "--classpath", classes_, "--method", method, "--observations",
                observations_, "--out", out});
  };
  SubprocessResult stats = infer("shop.Stats#max(int[])");
  ASSERT_EQ(stats.exit_code, 0) << stats.stdout_data << stats.stderr_data;
  SubprocessResult cart = infer("shop.Cart#add");
  ASSERT_EQ(cart.exit_code, 0) << cart.stdout_data << cart.stderr_data;
  // The console shows this run's method only; the files show both, sorted.
  EXPECT_THAT(cart.stdout_data, HasSubstr("shop.Cart#add: Success"));
  EXPECT_THAT(cart.stdout_data, Not(HasSubstr("shop.Stats")));
  std::string text = ReadFile(out + "/summary.txt").value_or("");
  size_t cart_line = text.find("shop.Cart#add: Success");
  size_t stats_line = text.find("shop.Stats#max(int[]): Success");
  ASSERT_NE(cart_line, std::string::npos) << text;
  ASSERT_NE(stats_line, std::string::npos) << text;
  EXPECT_LT(cart_line, stats_line);
  std::string json = ReadFile(out + "/summary.json").value_or("");
  EXPECT_THAT(json, HasSubstr("\"resolved\":\"shop.Cart#add(I)V\""));
  EXPECT_THAT(json, HasSubstr("\"resolved\":\"shop.Stats#max([I)I\""));
  // The same method spelled another way replaces its entry.
  SubprocessResult again = infer("shop.Cart#add(int)");
  ASSERT_EQ(again.exit_code, 0) << again.stdout_data << again.stderr_data;
  text = ReadFile(out + "/summary.txt").value_or("");
  EXPECT_EQ(Count(text, "shop.Cart#add"), 2) << text;  // its line and its contract path
  EXPECT_THAT(text, HasSubstr("shop.Cart#add(int): Success"));
  EXPECT_THAT(text, HasSubstr("shop.Stats#max(int[]): Success"));
  EXPECT_EQ(Count(ReadFile(out + "/summary.json").value_or(""), "\"resolved\":\"shop.Cart#add(I)V\""), 1);
  // A summary.json that is not one: bad input, not overwritten.
  ASSERT_TRUE(WriteFileAtomic(out + "/summary.json", "not json").ok());
  SubprocessResult broken = infer("shop.Cart#add");
  EXPECT_EQ(broken.exit_code, 3) << broken.stdout_data << broken.stderr_data;
  EXPECT_THAT(broken.stderr_data, HasSubstr(out + "/summary.json is not the summary of an earlier infer run"));
  EXPECT_EQ(ReadFile(out + "/summary.json").value_or(""), "not json");
}

// --- Observations bounded per method. ---------------------------------------

TEST_F(EdgesTest, ObservationsAreBoundedPerMethodKeepingEveryBehaviour) {
  testing::TempDir project;
  std::string classes = testing::CompileJava(
      project,
      {{"shop/Counter.java",
        "package shop;\npublic class Counter {\n  private int n;\n"
        "  public int add(int k) {\n"
        "    if (k < 0) throw new IllegalArgumentException(\"negative\");\n"
        "    n += k;\n    return n;\n  }\n}\n"},
       {"shop/CounterTest.java",
        "package shop;\nimport org.junit.jupiter.api.Test;\n"
        "import static org.junit.jupiter.api.Assertions.*;\n"
        "public class CounterTest {\n"
        "  @Test void many() {\n    Counter c = new Counter();\n"
        "    for (int i = 1; i <= 300; i++) c.add(i);\n"
        "    assertThrows(IllegalArgumentException.class, () -> c.add(-1));\n  }\n}\n"}},
      {"-g"}, testing::JunitJar());
  auto observe = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"observe", "--classpath", classes, "--tests",
                                     "shop.CounterTest", "--method", "shop.Counter#add", "--out",
                                     project.path() + "/obs"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run(args);
  };
  SubprocessResult r = observe({"--max-observations", "20"});
  ASSERT_EQ(r.exit_code, 0) << r.stdout_data << r.stderr_data;
  EXPECT_THAT(r.stdout_data, HasSubstr("shop.Counter#add(I)I  301 (300 returned, 1 threw); kept 20: "
                                       "3 distinct behaviours and a sample (cap 20), dropped 281"));
  // (n == 0 before the first call, n > 0 before the others, and the throw.)
  std::string summary = ReadFile(project.path() + "/obs/summary.json").value_or("");
  EXPECT_THAT(summary, HasSubstr("\"kept\": \"20\""));
  EXPECT_THAT(summary, HasSubstr("\"dropped\": \"281\""));
  EXPECT_THAT(summary, HasSubstr("\"observations_dropped\": \"281\""));
  std::string jsonl = ReadFile(project.path() + "/obs/observations.jsonl").value_or("");
  EXPECT_EQ(Count(jsonl, "\n"), 20);
  EXPECT_EQ(Count(jsonl, "java.lang.IllegalArgumentException"), 1);  // the rare behaviour kept
  // Deterministic: a second run keeps the same calls.
  ASSERT_EQ(observe({"--max-observations", "20"}).exit_code, 0);
  EXPECT_EQ(ReadFile(project.path() + "/obs/observations.jsonl").value_or(""), jsonl);

  // The cap from the policy; -1 keeps all.
  std::string policy = local_.Write(
      "policy.textproto",
      ReadFile(testing::SourceDir() + "/policies/default.textproto").value_or("") +
          "max_observations_per_method: 5\n");
  ASSERT_EQ(observe({"--policy", policy}).exit_code, 0);
  EXPECT_EQ(Count(ReadFile(project.path() + "/obs/observations.jsonl").value_or(""), "\n"), 5);
  ASSERT_EQ(observe({"--max-observations", "-1"}).exit_code, 0);
  EXPECT_EQ(Count(ReadFile(project.path() + "/obs/observations.jsonl").value_or(""), "\n"), 301);
  std::string bad = local_.Write("bad.textproto", "format_version: FORMAT_VERSION_1\n"
                                                  "max_observations_per_method: -2\n");
  SubprocessResult rejected = observe({"--policy", bad});
  EXPECT_EQ(rejected.exit_code, 3);
  EXPECT_THAT(rejected.stderr_data, HasSubstr("bad.textproto:2:"));
  EXPECT_THAT(rejected.stderr_data, HasSubstr("max_observations_per_method must be positive"));
}

// --- Progress on a terminal only. -------------------------------------------

TEST_F(EdgesTest, AStatusLineOnATerminalAndNothingInALog) {
  std::string contract = Contract(kMaxContract);
  std::vector<std::string> args = {testing::TracespecBinary(), "validate", "--classpath", classes_,
                                   "--method", "shop.Stats#max(int[])", "--contract", contract};
  // Not a terminal (a pipe, as in CI): the verdict, no status line.
  SubprocessResult plain = Run({args.begin() + 1, args.end()});
  ASSERT_EQ(plain.exit_code, 0) << plain.stdout_data << plain.stderr_data;
  EXPECT_EQ(plain.stderr_data, "");
  EXPECT_THAT(plain.stdout_data, Not(HasSubstr("\r")));
  // A terminal (script(1) gives the command a pseudo-terminal): the status
  // line with the method and the elapsed time, cleared before the verdict.
  std::string command;
  for (const std::string& a : args) absl::StrAppend(&command, command.empty() ? "" : " ", "'", a, "'");
  absl::StatusOr<SubprocessResult> tty = RunSubprocess({"script", "-qec", command, "/dev/null"});
  ASSERT_TRUE(tty.ok()) << tty.status();
  EXPECT_EQ(tty->exit_code, 0) << tty->stdout_data;
  EXPECT_THAT(tty->stdout_data,
              HasSubstr("\r\033[Ktracespec: validate shop.Stats#max(int[]): checking consistency ("));
  EXPECT_THAT(tty->stdout_data, HasSubstr("s)\r\033[K"));
  EXPECT_THAT(tty->stdout_data, HasSubstr("consistency: PASS"));
}

// --- Class-path entries loaded lazily. --------------------------------------

TEST_F(EdgesTest, AGarbageClassFileOnlyMattersWhereItIsNeeded) {
  testing::TempDir project;
  std::string classes = testing::CompileJava(
      project,
      {{"shop/Stats.java", kStats},
       {"shop/Helper.java", "package shop;\npublic class Helper { public int one() { return 1; } }\n"},
       {"shop/Uses.java",
        "package shop;\npublic class Uses {\n"
        "  public static int two() { return new Helper().one() + 1; }\n}\n"}},
      {"-g"});
  // Garbage elsewhere on the class path: an unrelated class and one Uses needs.
  ASSERT_TRUE(MakeDirs(classes + "/junk").ok());
  ASSERT_TRUE(WriteFileAtomic(classes + "/junk/Broken.class", "garbage, not a class").ok());
  ASSERT_TRUE(WriteFileAtomic(classes + "/shop/Helper.class", "\xca\xfe\xba\xbe garbage").ok());
  std::string contract = Contract(kMaxContract);

  // Stats needs neither: validated as if the garbage were not there.
  SubprocessResult ok = Run({"validate", "--classpath", classes, "--method",
                             "shop.Stats#max(int[])", "--contract", contract});
  EXPECT_EQ(ok.exit_code, 0) << ok.stdout_data << ok.stderr_data;
  EXPECT_THAT(ok.stdout_data, HasSubstr("consistency: PASS"));
  EXPECT_THAT(ok.stderr_data, Not(HasSubstr("error")));
  SubprocessResult verify = Run({"verify", "--classpath", classes, "--class", "shop.Stats",
                                 "--method", "max(int, int)", "--property",
                                 "no-runtime-exception"});
  EXPECT_EQ(verify.exit_code, 0) << verify.stdout_data << verify.stderr_data;

  // The method under check is in the broken class: bad input, naming the file.
  SubprocessResult target = Run({"validate", "--classpath", classes, "--method",
                                 "shop.Helper#one", "--contract",
                                 Contract("//@ ensures \\result == 1;\n")});
  EXPECT_EQ(target.exit_code, 3) << target.stdout_data << target.stderr_data;
  EXPECT_THAT(target.stderr_data, HasSubstr("tracespec: error: " + classes + "/shop/Helper.class"));
  EXPECT_THAT(target.stdout_data, Not(HasSubstr("result:")));

  // Code that runs into the broken class: undecided, the reason naming it.
  SubprocessResult uses = Run({"validate", "--classpath", classes, "--method", "shop.Uses#two",
                               "--contract", Contract("//@ ensures \\result == 2;\n")});
  EXPECT_EQ(uses.exit_code, 11) << uses.stdout_data << uses.stderr_data;
  EXPECT_THAT(uses.stdout_data,
              HasSubstr("class shop.Helper cannot be loaded (" + classes + "/shop/Helper.class"));
}

// --- Path flags checked up front. -------------------------------------------

TEST_F(EdgesTest, PathFlagsAreCheckedBeforeAnyWork) {
  std::string jar = local_.Write("tests.jar", "not really a jar");
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  std::string inf = local_.path() + "/inf";
  const std::vector<Case> cases = {
      {{"infer", "--classpath", classes_, "--method", "shop.Stats#max([I)I", "--observations",
        observations_, "--out", inf, "--tests-src", local_.path() + "/missing"},
       "--tests-src " + local_.path() + "/missing: no such file or directory"},
      {{"infer", "--classpath", classes_, "--method", "shop.Stats#max([I)I", "--observations",
        observations_, "--out", inf, "--tests-src", jar},
       "--tests-src " + jar + ": is a file, not a directory"},
      {{"infer", "--classpath", classes_, "--method", "shop.Stats#max([I)I", "--observations",
        local_.path() + "/none", "--out", inf},
       "--observations " + local_.path() + "/none: no such file or directory"},
      {{"observe", "--classpath", classes_, "--tests", "shop.StatsTest", "--method",
        "shop.Stats#max", "--out", inf, "--tests-src", jar},
       "--tests-src " + jar + ": is a file, not a directory"},
      {{"observe", "--classpath", classes_, "--tests", "shop.StatsTest", "--method",
        "shop.Stats#max", "--out", inf, "--policy", local_.path()},
       "--policy " + local_.path() + ": is a directory, not a file"},
      {{"validate", "--classpath", classes_ + ":" + local_.path() + "/gone", "--method",
        "shop.Stats#max([I)I", "--contract", Contract(kMaxContract)},
       "--classpath " + local_.path() + "/gone: no such file or directory (entry of "},
      {{"validate", "--classpath", classes_, "--method", "shop.Stats#max([I)I", "--contract",
        local_.path() + "/c.txt"},
       "--contract " + local_.path() + "/c.txt: no such file or directory"},
  };
  for (const Case& c : cases) {
    SubprocessResult r = Run(c.args);
    EXPECT_EQ(r.exit_code, 3) << c.error << "\n" << r.stderr_data;
    EXPECT_THAT(r.stderr_data, HasSubstr("tracespec: error: " + c.error));
    EXPECT_EQ(Count(r.stderr_data, "error"), 1) << r.stderr_data;
  }
  EXPECT_FALSE(FileExists(inf + "/summary.json"));
}

}  // namespace
}  // namespace tracespec
