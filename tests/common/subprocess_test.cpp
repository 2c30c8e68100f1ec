// Tests for common/subprocess.h with real child processes.
#include "common/subprocess.h"

#include <signal.h>
#include <unistd.h>

#include <thread>

#include "common/files.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec {
namespace {

TEST(SubprocessTest, CapturesOutputAndExitCode) {
  auto r = RunSubprocess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->stdout_data, "out\n");
  EXPECT_EQ(r->stderr_data, "err\n");
  EXPECT_FALSE(r->Succeeded());
  EXPECT_EQ(r->Describe(), "exit code 3");
}

TEST(SubprocessTest, RedirectsToFile) {
  testing::TempDir dir;
  SubprocessOptions options;
  options.stdout_path = options.stderr_path = dir.path() + "/log";
  auto r = RunSubprocess({"sh", "-c", "echo a; echo b >&2"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->Succeeded());
  EXPECT_EQ(*ReadFile(dir.path() + "/log"), "a\nb\n");
}

TEST(SubprocessTest, TimeoutKills) {
  SubprocessOptions options;
  options.timeout_seconds = 0.3;
  auto r = RunSubprocess({"sleep", "30"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(r->seconds, 10);
}

TEST(SubprocessTest, TimeoutWithGraceSendsTermFirst) {
  // The child traps SIGTERM and exits 7: it was asked, not killed.
  SubprocessOptions options;
  options.timeout_seconds = 0.5;
  options.terminate_grace_seconds = 20;
  auto r = RunSubprocess({"sh", "-c", "trap 'exit 7' TERM; sleep 30 & wait"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->exit_code, 7);
  EXPECT_LT(r->seconds, 15);
}

TEST(SubprocessTest, GraceWaitsForTheRestOfTheGroup) {
  // A launcher that exits at once while the program it started goes on
  // writing: the wait covers the program too.
  testing::TempDir dir;
  std::string marker = dir.path() + "/done";
  SubprocessOptions options;
  options.terminate_grace_seconds = 20;
  auto r = RunSubprocess({"sh", "-c", "(sleep 1; echo x > '" + marker + "') & exit 0"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_TRUE(FileExists(marker));
}

TEST(SubprocessTest, InterruptStopsTheChildNotThisProcess) {
  SubprocessOptions options;
  options.stop_on_interrupt = true;
  options.terminate_grace_seconds = 20;
  std::thread interrupter([] {
    ::usleep(500 * 1000);
    ::kill(::getpid(), SIGINT);
  });
  auto r = RunSubprocess({"sh", "-c", "trap 'exit 9' TERM; sleep 30 & wait"}, options);
  interrupter.join();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->interrupted_by, SIGINT);
  EXPECT_EQ(r->exit_code, 9);
  EXPECT_FALSE(r->Succeeded() && r->interrupted_by == 0);
  EXPECT_EQ(r->Describe(), "stopped by signal 2 (Interrupt)");
}

// Children run at once on several threads (observe --noninterference):
// one interrupt stops all of them.
TEST(SubprocessTest, OneInterruptStopsTheChildrenOfEveryThread) {
  SubprocessOptions options;
  options.stop_on_interrupt = true;
  absl::StatusOr<SubprocessResult> first, second;
  std::thread a([&] { first = RunSubprocess({"sleep", "30"}, options); });
  std::thread b([&] { second = RunSubprocess({"sleep", "30"}, options); });
  ::usleep(700 * 1000);
  ::kill(::getpid(), SIGINT);
  a.join();
  b.join();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->interrupted_by, SIGINT);
  EXPECT_EQ(second->interrupted_by, SIGINT);
  EXPECT_LT(first->seconds, 20);
  EXPECT_LT(second->seconds, 20);
}

// The handlers stop_on_interrupt installs are those from before once the
// last child has ended, whichever thread's child ends first.
TEST(SubprocessTest, OverlappingChildrenRestoreTheSignalHandlers) {
  struct sigaction before {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &before), 0);
  SubprocessOptions options;
  options.stop_on_interrupt = true;
  std::thread a([&] { (void)RunSubprocess({"sleep", "0.3"}, options); });
  ::usleep(100 * 1000);
  std::thread b([&] { (void)RunSubprocess({"sleep", "1"}, options); });
  a.join();
  b.join();
  struct sigaction after {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
}

TEST(SubprocessTest, SignalIsReported) {
  auto r = RunSubprocess({"sh", "-c", "kill -9 $$"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->signal, 9);
  EXPECT_FALSE(r->Succeeded());
}

TEST(SubprocessTest, MissingProgramIsNotFound) {
  auto r = RunSubprocess({"tracespec-no-such-program"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);
}

TEST(SubprocessTest, EnvironmentAndStdin) {
  SubprocessOptions options;
  options.env = {{"TRACESPEC_X", "42"}};
  options.stdin_data = "hello";
  auto r = RunSubprocess({"sh", "-c", "printf %s \"$TRACESPEC_X\"; cat"}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_data, "42hello");
}

}  // namespace
}  // namespace tracespec
