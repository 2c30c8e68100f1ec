// A real `tracespec serve <stage>` process for the service tests: the
// binary under test on 127.0.0.1:0, its port read from the line it prints;
// and Untimed, to compare outputs that carry times.
#ifndef TRACESPEC_TESTS_SERVICES_SERVER_PROCESS_H_
#define TRACESPEC_TESTS_SERVICES_SERVER_PROCESS_H_

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "tests/testing/testing.h"

namespace tracespec {

// Timing fields zeroed ("seconds": 1.25, "validation_seconds": ... -> 0),
// and the lines `validate` prints with a time ("time: 0.449 s"), dropped.
inline std::string Untimed(const std::string& text) {
  static const std::regex kTiming(R"re("([a-z_]*seconds)": *[-0-9.eE+]+)re");
  std::string out = std::regex_replace(text, kTiming, "\"$1\": 0");
  std::string kept;
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    if (absl::StartsWith(line, "time: ")) continue;
    absl::StrAppend(&kept, line, "\n");
  }
  return kept;
}

// The real `tracespec serve <stage>`, its stdout read until the line that
// says where it listens; stderr goes to a file.
class ServerProcess {
 public:
  // `tracespec serve validator --listen 127.0.0.1:0 --classpath CP EXTRA...`.
  ServerProcess(const std::string& class_path, const std::vector<std::string>& extra,
                const std::string& stderr_path)
      : ServerProcess(WithClassPath(class_path, extra), stderr_path) {}

  // `tracespec serve STAGE --listen 127.0.0.1:0 FLAGS...` for
  // `stage_and_flags` = {STAGE, FLAGS...}.
  ServerProcess(const std::vector<std::string>& stage_and_flags, const std::string& stderr_path)
      : stderr_path_(stderr_path), stage_(stage_and_flags.at(0)) {
    std::vector<std::string> args = {testing::TracespecBinary(), "serve", stage_, "--listen",
                                     "127.0.0.1:0"};
    args.insert(args.end(), stage_and_flags.begin() + 1, stage_and_flags.end());
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(err, 2);
      close(out[0]);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    stdout_fd_ = out[0];
    ReadUntilListening();
  }

  ~ServerProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (stdout_fd_ >= 0) close(stdout_fd_);
  }

  const std::string& address() const { return address_; }
  const std::string& listening_line() const { return line_; }
  pid_t pid() const { return pid_; }

  // The exit status, or -1 when it did not exit within `seconds` (or died
  // by a signal).
  int WaitForExit(double seconds) {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
      int status = 0;
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }

  std::string Stderr() const {
    auto text = ReadFile(stderr_path_);
    return text.ok() ? *text : "";
  }

 private:
  static std::vector<std::string> WithClassPath(const std::string& class_path,
                                                std::vector<std::string> extra) {
    extra.insert(extra.begin(), {"validator", "--classpath", class_path});
    return extra;
  }

  void ReadUntilListening() {
    std::string buffer;
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < end) {
      pollfd p{stdout_fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char chunk[256];
      ssize_t n = read(stdout_fd_, chunk, sizeof chunk);
      if (n <= 0) break;
      buffer.append(chunk, n);
      size_t newline = buffer.find('\n');
      if (newline == std::string::npos) continue;
      line_ = buffer.substr(0, newline);
      const std::string prefix = "tracespec: " + stage_ + " service listening on ";
      if (line_.rfind(prefix, 0) == 0) {
        address_ = line_.substr(prefix.size(), line_.find(' ', prefix.size()) - prefix.size());
      }
      return;
    }
  }

  std::string stderr_path_;
  std::string stage_;
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  bool exited_ = false;
  std::string line_;
  std::string address_;
};

}  // namespace tracespec

#endif  // TRACESPEC_TESTS_SERVICES_SERVER_PROCESS_H_
