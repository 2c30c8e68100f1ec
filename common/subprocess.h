// Runs child processes (the JVM, javac, solvers in tests) without a shell.
#ifndef TRACESPEC_COMMON_SUBPROCESS_H_
#define TRACESPEC_COMMON_SUBPROCESS_H_

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace tracespec {

struct SubprocessOptions {
  // Extra or replaced environment variables; the rest is inherited.
  std::vector<std::pair<std::string, std::string>> env;
  // Working directory; empty = current.
  std::string cwd;
  // Files that receive the child's stdout/stderr; empty = capture into
  // SubprocessResult (stdout) and (stderr). Both may name the same file.
  std::string stdout_path;
  std::string stderr_path;
  // Kill the child (and its process group) after this many seconds; 0 = never.
  double timeout_seconds = 0;
  // Data written to the child's stdin (then closed).
  std::string stdin_data;
  // When > 0, stopping the child (timeout, interrupt) sends SIGTERM to its
  // process group first and SIGKILL only after this many seconds, so a JVM
  // can finish its shutdown; and once the child has exited, the rest of its
  // process group (a program a launcher script started) gets as long to
  // exit before it is killed.
  double terminate_grace_seconds = 0;
  // SIGINT or SIGTERM sent to this process while the child runs stops the
  // child (as above) instead of ending this process; the result says so.
  bool stop_on_interrupt = false;
  // The child runs with the user's own umask (UserUmask(), owned_paths.h)
  // instead of tracespec's 077: for programs whose files are the user's
  // (the project's build command, a legacy program).
  bool user_umask = false;
  // When set, the child is killed as soon as *cancel becomes true (another
  // thread decides); the result says cancelled.
  const std::atomic<bool>* cancel = nullptr;
};

struct SubprocessResult {
  // Exit status when the child exited; -1 when it was killed by a signal.
  int exit_code = -1;
  // Signal number when the child was killed by a signal, else 0.
  int signal = 0;
  bool timed_out = false;
  // The signal (SIGINT, SIGTERM) that made this process stop the child
  // (SubprocessOptions::stop_on_interrupt), else 0.
  int interrupted_by = 0;
  // SubprocessOptions::cancel stopped the child.
  bool cancelled = false;
  std::string stdout_data;
  std::string stderr_data;
  double seconds = 0;

  bool Succeeded() const { return exit_code == 0 && signal == 0 && !timed_out; }
  // "exit code 3", "killed by signal 9 (Killed)", "timed out after 10s",
  // "stopped by signal 2 (Interrupt)".
  std::string Describe() const;
};

// Runs argv[0] (looked up in PATH) with arguments. An error status means the
// child could not be started at all (e.g. program not found).
absl::StatusOr<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv,
                                               const SubprocessOptions& options = {});

// Finds `program` in PATH; empty when absent.
std::string FindInPath(const std::string& program);

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_SUBPROCESS_H_
