// Tests for observer/command.h: injecting the probe into a command line,
// merging the status files of several JVMs, the loaded-packages message.
#include "observer/command.h"

#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::observer {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

TEST(CommandTest, JavaIsRecognisedByName) {
  EXPECT_TRUE(IsJavaProgram("java"));
  EXPECT_TRUE(IsJavaProgram("/usr/lib/jvm/java-17/bin/java"));
  EXPECT_FALSE(IsJavaProgram("javac"));
  EXPECT_FALSE(IsJavaProgram("bin/run-java"));
  EXPECT_FALSE(IsJavaProgram("./launcher.sh"));
}

TEST(CommandTest, TheClassPathOfAJavaCommandLine) {
  EXPECT_EQ(CommandClassPath({"java", "-jar", "app.jar", "in.txt"}, "/w"), "/w/app.jar");
  EXPECT_EQ(CommandClassPath({"java", "-Xmx1g", "-cp", "a:/b.jar", "Main", "-jar", "x"}, ""),
            "a:/b.jar");
  EXPECT_EQ(CommandClassPath({"/jdk/bin/java", "--class-path=lib/x.jar", "Main"}, "/w"),
            "/w/lib/x.jar");
  EXPECT_EQ(CommandClassPath({"java", "-classpath", "c", "Main"}, "/w"), "/w/c");
  // Options after the main class are the program's.
  EXPECT_EQ(CommandClassPath({"java", "Main", "-cp", "c"}, ""), "");
  // A launcher's class path cannot be known.
  EXPECT_EQ(CommandClassPath({"bin/run", "-cp", "c"}, ""), "");
  EXPECT_EQ(CommandClassPath({"java", "-cp"}, ""), "");
}

TEST(CommandTest, JavaGetsAgentpathRightAfterTheProgram) {
  auto launch = InjectProbe({"/opt/jdk/bin/java", "-jar", "app.jar", "in.txt"}, "/p/probe.so",
                            "/t/config.pb", "-Xmx1g");
  ASSERT_TRUE(launch.ok()) << launch.status();
  EXPECT_THAT(launch->argv, ElementsAre("/opt/jdk/bin/java",
                                        "-agentpath:/p/probe.so=config=/t/config.pb", "-jar",
                                        "app.jar", "in.txt"));
  EXPECT_TRUE(launch->env.empty());  // The inherited JAVA_TOOL_OPTIONS stays as it is.
  EXPECT_EQ(launch->injection, "-agentpath");
}

TEST(CommandTest, LaunchersGetJavaToolOptionsKeepingWhatWasThere) {
  auto launch = InjectProbe({"bin/start", "x"}, "/p/probe.so", "/t/c.pb", "-Xmx1g");
  ASSERT_TRUE(launch.ok()) << launch.status();
  EXPECT_THAT(launch->argv, ElementsAre("bin/start", "x"));
  ASSERT_EQ(launch->env.size(), 1u);
  EXPECT_EQ(launch->env[0].first, "JAVA_TOOL_OPTIONS");
  EXPECT_EQ(launch->env[0].second, "-Xmx1g -agentpath:/p/probe.so=config=/t/c.pb");
  EXPECT_EQ(launch->injection, "JAVA_TOOL_OPTIONS");

  launch = InjectProbe({"bin/start"}, "/p/probe.so", "/t/c.pb", "");
  ASSERT_TRUE(launch.ok());
  EXPECT_EQ(launch->env[0].second, "-agentpath:/p/probe.so=config=/t/c.pb");
}

TEST(CommandTest, PathsJavaToolOptionsCannotHoldAreRefused) {
  auto launch = InjectProbe({"bin/start"}, "/my tools/probe.so", "/t/c.pb", "");
  EXPECT_EQ(launch.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(launch.status().message()), ::testing::HasSubstr("space or quote"));
  // java itself takes the path as one argument.
  EXPECT_TRUE(InjectProbe({"java"}, "/my tools/probe.so", "/t/c.pb", "").ok());
  EXPECT_FALSE(InjectProbe({}, "/p.so", "/c.pb", "").ok());
}

v1::ProbeStatus Status(bool loaded, const std::string& matched, bool death, int observations,
                       const std::map<std::string, int>& packages) {
  v1::ProbeStatus s;
  v1::TargetStatus* t = s.add_targets();
  t->mutable_target()->set_class_name("legacy.pricing.Cart");
  t->set_class_loaded(loaded);
  if (!matched.empty()) t->add_methods_matched(matched);
  s.set_vm_death_seen(death);
  s.set_observations_written(observations);
  for (const auto& [name, count] : packages) {
    v1::PackageCount* p = s.add_loaded_packages();
    p->set_package(name);
    p->set_classes(count);
  }
  return s;
}

TEST(CommandTest, StatusFilesOfSeveralJvmsAreMerged) {
  testing::TempDir dir;
  std::string base = dir.path() + "/status.pb";
  // A launcher's `java -version` loads nothing of ours; the program does.
  ASSERT_TRUE(WriteFileAtomic(base + ".100", Status(false, "", true, 0, {{"", 1}})
                                                 .SerializeAsString())
                  .ok());
  ASSERT_TRUE(WriteFileAtomic(base + ".200", Status(true, "add(I)V", false, 5,
                                                    {{"", 2}, {"legacy.pricing", 3}})
                                                 .SerializeAsString())
                  .ok());
  ASSERT_TRUE(WriteFileAtomic(base + ".200.tmp", "not a status").ok());
  int jvms = 0;
  auto merged = ReadStatuses(base, &jvms);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(jvms, 2);
  ASSERT_EQ(merged->targets_size(), 1);
  EXPECT_TRUE(merged->targets(0).class_loaded());
  EXPECT_THAT(merged->targets(0).methods_matched(), ElementsAre("add(I)V"));
  EXPECT_FALSE(merged->vm_death_seen());  // One JVM did not end in order.
  EXPECT_EQ(merged->observations_written(), 5u);
  ASSERT_EQ(merged->loaded_packages_size(), 2);
  EXPECT_EQ(merged->loaded_packages(0).package(), "");
  EXPECT_EQ(merged->loaded_packages(0).classes(), 3);

  testing::TempDir empty;
  ASSERT_TRUE(ReadStatuses(empty.path() + "/status.pb", &jvms).ok());
  EXPECT_EQ(jvms, 0);
}

TEST(CommandTest, TopPackagesLeaveOutTheJdkAndSortByCount) {
  v1::ProbeStatus s = Status(false, "", true, 0,
                             {{"com.acme", 2}, {"jdk.internal.misc", 40}, {"legacy", 1},
                              {"sun.launcher", 9}, {"org.util", 7}, {"javax.crypto", 3}});
  EXPECT_EQ(TopPackages(s, 10), "org.util (7 classes), com.acme (2 classes), legacy (1 class)");
  EXPECT_EQ(TopPackages(s, 1), "org.util (7 classes)");
  EXPECT_EQ(TopPackages(Status(false, "", true, 0, {{"java.lang", 3}}), 10), "");
}

}  // namespace
}  // namespace tracespec::observer
