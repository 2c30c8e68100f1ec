// Tests for observer/junit.h: the command line and the listener's results.
#include "observer/junit.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::observer {
namespace {

TEST(JunitTest, CommandRunsTheConsoleLauncherUnderTheProbe) {
  JunitCommand c;
  c.java = "/usr/bin/java";
  c.probe = "/lib/libtracespec_probe.so";
  c.probe_config = "/tmp/cfg.pb";
  c.listener_jar = "/lib/listener.jar";
  c.junit_jar = "/junit.jar";
  c.results_path = "/tmp/results.tsv";
  c.classpath = "a:b";
  c.test_classes = {"t.ATest", "t.BTest"};
  std::vector<std::string> argv = BuildCommand(c);
  EXPECT_THAT(argv, ::testing::ElementsAre(
                        "/usr/bin/java", "-agentpath:/lib/libtracespec_probe.so=config=/tmp/cfg.pb",
                        "-Dtracespec.results=/tmp/results.tsv", "-cp",
                        "a:b:/lib/listener.jar:/junit.jar",
                        "org.junit.platform.console.ConsoleLauncher", "--disable-banner",
                        "--disable-ansi-colors", "--fail-if-no-tests",
                        "--select-class=t.ATest", "--select-class=t.BTest"));
  c.probe.clear();
  c.listener_jar.clear();
  c.results_path.clear();
  argv = BuildCommand(c);
  EXPECT_EQ(argv[1], "-cp");
  EXPECT_EQ(argv[2], "a:b:/junit.jar");
}

TEST(JunitTest, SelectorsReplaceTheClasses) {
  JunitCommand c;
  c.java = "java";
  c.junit_jar = "/junit.jar";
  c.test_classes = {"t.ATest"};
  c.selectors = {"t.ATest#a()", "t.BTest"};
  std::vector<std::string> argv = BuildCommand(c);
  EXPECT_THAT(std::vector<std::string>(argv.end() - 2, argv.end()),
              ::testing::ElementsAre("--select-method=t.ATest#a()", "--select-class=t.BTest"));
}

// JUnit finds a parameterized test only with its parameter types, and an
// inherited test through its subclass.
TEST(JunitTest, MethodSelectorsCarryParameterTypes) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"t/Base.java", "package t; class Base { void inherited() {} }\n"},
            {"t/ATest.java",
             "package t; class ATest extends Base {\n"
             "  void plain() {}\n"
             "  void param(String s, int[] xs, Inner i) {}\n"
             "  void param(long n) {}\n"
             "  static class Inner {}\n"
             "}\n"}});
  ASSERT_FALSE(classes.empty());
  EXPECT_THAT(MethodSelectors({"t.ATest#plain", "t.ATest#param", "t.ATest#inherited",
                               "t.ATest#missing", "t.Skipped#*", "[engine:x]/[dynamic:y]",
                               "t.ATest#plain"},
                              classes),
              ::testing::ElementsAre("t.ATest#inherited()", "t.ATest#missing",
                                     "t.ATest#param(java.lang.String,int[],t.ATest$Inner)",
                                     "t.ATest#param(long)", "t.ATest#plain()", "t.Skipped"));
}

TEST(JunitTest, ResultsAggregatePerTest) {
  TestResults r = ParseTestResults(
      "plan-started\n"
      "started\tt.A#ok\nfinished\tt.A#ok\tSUCCESSFUL\t\n"
      "started\tt.A#param\nfinished\tt.A#param\tSUCCESSFUL\t\n"
      "started\tt.A#param\nfinished\tt.A#param\tFAILED\torg.opentest4j.AssertionFailedError\n"
      "started\tt.A#param\nfinished\tt.A#param\tSUCCESSFUL\t\n"
      "skipped\tt.A#off\n"
      "started\tt.A#assume\nfinished\tt.A#assume\tABORTED\torg.opentest4j.TestAbortedException\n"
      "plan-finished\n");
  EXPECT_TRUE(r.plan_started);
  EXPECT_TRUE(r.plan_finished);
  ASSERT_EQ(r.tests.size(), 4u);
  EXPECT_EQ(r.tests["t.A#ok"].status(), v1::TEST_STATUS_PASSED);
  EXPECT_EQ(r.tests["t.A#param"].status(), v1::TEST_STATUS_FAILED);
  EXPECT_EQ(r.tests["t.A#param"].failure_class(), "org.opentest4j.AssertionFailedError");
  EXPECT_EQ(r.tests["t.A#off"].status(), v1::TEST_STATUS_SKIPPED);
  EXPECT_EQ(r.tests["t.A#assume"].status(), v1::TEST_STATUS_SKIPPED);
  EXPECT_TRUE(r.unfinished.empty());
}

// A container whose own code failed (the listener's "container-failed"):
// a class whose @BeforeAll threw is an entry of its own, failed; a test
// template that ran stays a test, failed.
TEST(JunitTest, AFailedContainerIsAFailedEntry) {
  TestResults r = ParseTestResults(
      "plan-started\n"
      "container-failed\tt.Broken\tjava.lang.IllegalStateException\n"
      "started\tt.A#param\nfinished\tt.A#param\tSUCCESSFUL\t\n"
      "container-failed\tt.A#param\torg.junit.platform.commons.PreconditionViolationException\n"
      "container-failed\t[engine:junit-jupiter]\t\n"
      "plan-finished\n");
  ASSERT_EQ(r.tests.size(), 3u);
  const v1::TestSummary& broken = r.tests["t.Broken"];
  EXPECT_EQ(broken.test_id(), "t.Broken");
  EXPECT_EQ(broken.status(), v1::TEST_STATUS_FAILED);
  EXPECT_EQ(broken.kind(), v1::TEST_ENTRY_CONTAINER);
  EXPECT_EQ(broken.failure_class(), "java.lang.IllegalStateException");
  EXPECT_EQ(r.tests["t.A#param"].status(), v1::TEST_STATUS_FAILED);
  EXPECT_EQ(r.tests["t.A#param"].kind(), v1::TEST_ENTRY_TEST);
  EXPECT_EQ(r.tests["[engine:junit-jupiter]"].kind(), v1::TEST_ENTRY_CONTAINER);
  EXPECT_TRUE(r.unfinished.empty());
}

TEST(JunitTest, TestsStartedButNeverFinishedAreInterrupted) {
  TestResults r = ParseTestResults(
      "plan-started\nstarted\tt.A#ok\nfinished\tt.A#ok\tSUCCESSFUL\t\nstarted\tt.A#dies\n");
  EXPECT_FALSE(r.plan_finished);
  EXPECT_EQ(r.tests["t.A#dies"].status(), v1::TEST_STATUS_INTERRUPTED);
  EXPECT_THAT(r.unfinished, ::testing::ElementsAre("t.A#dies"));
}

TEST(JunitTest, DiscoveryProblemNamesTheClass) {
  EXPECT_EQ(DiscoveryProblem("x\nCaused by: org.junit...: Could not load class with name: "
                             "t.Nope\n  at ..."),
            "test class 't.Nope' was not found on the class path");
  EXPECT_EQ(DiscoveryProblem("all fine\n"), "");
}

}  // namespace
}  // namespace tracespec::observer
