// Child processes; see subprocess.h.
#include "common/subprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/interrupt.h"
#include "common/owned_paths.h"

extern char** environ;

namespace tracespec {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The interrupt SubprocessOptions::stop_on_interrupt caught, or 0.
volatile sig_atomic_t g_interrupt = 0;

void OnInterrupt(int signal) { g_interrupt = signal; }

// Installs OnInterrupt for SIGINT and SIGTERM while it lives; not needed
// (and not done) when the process stops on signals anyway (interrupt.h),
// whose flag the child's loop reads too. Scopes of children that run at
// once on several threads share one installation: the first installs the
// handlers, the last restores the previous ones, and an interrupt caught
// meanwhile stops every child that is running.
class InterruptScope {
 public:
  explicit InterruptScope(bool active) : active_(active && !StopOnSignalsInstalled()) {
    if (!active_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (users_++ > 0) return;
    g_interrupt = 0;
    struct sigaction action {};
    action.sa_handler = &OnInterrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &old_int_);
    ::sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptScope() {
    if (!active_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (--users_ > 0) return;
    g_interrupt = 0;
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  bool active_;
  static inline std::mutex mutex_;
  static inline int users_ = 0;
  static inline struct sigaction old_int_ {};
  static inline struct sigaction old_term_ {};
};

// Waits up to `seconds` for every process of group `pgid` to end; then
// kills what is left.
void AwaitGroup(pid_t pgid, double seconds) {
  double deadline = Now() + seconds;
  while (::kill(-pgid, 0) == 0 && Now() < deadline) ::usleep(10000);
  ::kill(-pgid, SIGKILL);
}

int OpenOutput(const std::string& path) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

}  // namespace

std::string SubprocessResult::Describe() const {
  if (timed_out) return absl::StrCat("timed out after ", static_cast<int>(seconds), "s");
  if (cancelled) return "cancelled";
  if (interrupted_by != 0) {
    return absl::StrCat("stopped by signal ", interrupted_by, " (", strsignal(interrupted_by),
                        ")");
  }
  if (signal != 0) return absl::StrCat("killed by signal ", signal, " (", strsignal(signal), ")");
  return absl::StrCat("exit code ", exit_code);
}

std::string FindInPath(const std::string& program) {
  if (program.find('/') != std::string::npos) {
    return ::access(program.c_str(), X_OK) == 0 ? program : "";
  }
  const char* path = std::getenv("PATH");
  for (absl::string_view dir : absl::StrSplit(path ? path : "/usr/bin:/bin", ':')) {
    std::string candidate = absl::StrCat(dir.empty() ? "." : dir, "/", program);
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return "";
}

absl::StatusOr<SubprocessResult> RunSubprocess(const std::vector<std::string>& argv,
                                               const SubprocessOptions& options) {
  if (argv.empty()) return absl::InvalidArgumentError("empty command line");
  std::string program = FindInPath(argv[0]);
  if (program.empty()) {
    return absl::NotFoundError(absl::StrCat(argv[0], ": program not found in PATH"));
  }

  // Environment: inherited, with overrides applied.
  std::vector<std::string> env_storage;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry(*e);
    bool replaced = false;
    for (const auto& [key, value] : options.env) {
      if (entry.compare(0, key.size() + 1, key + "=") == 0) replaced = true;
    }
    if (!replaced) env_storage.push_back(std::move(entry));
  }
  for (const auto& [key, value] : options.env) env_storage.push_back(key + "=" + value);
  std::vector<char*> envp;
  for (auto& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (auto& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);

  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, in_pipe[2] = {-1, -1};
  bool capture_out = options.stdout_path.empty();
  bool capture_err = options.stderr_path.empty();
  int out_fd = -1, err_fd = -1;
  if (capture_out && ::pipe2(out_pipe, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  if (capture_err && ::pipe2(err_pipe, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  if (!capture_out) {
    out_fd = OpenOutput(options.stdout_path);
    if (out_fd < 0) {
      return absl::InternalError(absl::StrCat(options.stdout_path, ": cannot open: ",
                                              std::strerror(errno)));
    }
  }
  if (!capture_err) {
    err_fd = options.stderr_path == options.stdout_path && out_fd >= 0
                 ? ::dup(out_fd)
                 : OpenOutput(options.stderr_path);
    if (err_fd < 0) {
      return absl::InternalError(absl::StrCat(options.stderr_path, ": cannot open: ",
                                              std::strerror(errno)));
    }
  }

  InterruptScope interrupts(options.stop_on_interrupt);
  double start = Now();
  // One fork at a time: threads forking at once (parallel checks each
  // starting a solver) deadlock in the libraries' fork handlers.
  const mode_t child_umask = options.user_umask ? UserUmask() : 0;
  static std::mutex fork_mutex;
  pid_t pid;
  {
    std::lock_guard<std::mutex> lock(fork_mutex);
    pid = ::fork();
  }
  if (pid < 0) return absl::InternalError(absl::StrCat("fork failed: ", std::strerror(errno)));
  if (pid == 0) {
    ::setpgid(0, 0);
    if (options.user_umask) ::umask(child_umask);
    if (options.stop_on_interrupt) {  // The child keeps the default dispositions.
      ::signal(SIGINT, SIG_DFL);
      ::signal(SIGTERM, SIG_DFL);
    }
    ::dup2(in_pipe[0], 0);
    ::dup2(capture_out ? out_pipe[1] : out_fd, 1);
    ::dup2(capture_err ? err_pipe[1] : err_fd, 2);
    if (!options.cwd.empty() && ::chdir(options.cwd.c_str()) != 0) _exit(127);
    ::execve(program.c_str(), argp.data(), envp.data());
    _exit(127);
  }
  ::setpgid(pid, pid);
  ::close(in_pipe[0]);
  if (capture_out) ::close(out_pipe[1]);
  if (capture_err) ::close(err_pipe[1]);
  if (out_fd >= 0) ::close(out_fd);
  if (err_fd >= 0) ::close(err_fd);

  // Feed stdin (small inputs only; children here read little).
  if (!options.stdin_data.empty()) {
    ::signal(SIGPIPE, SIG_IGN);
    size_t written = 0;
    while (written < options.stdin_data.size()) {
      ssize_t n = ::write(in_pipe[1], options.stdin_data.data() + written,
                          options.stdin_data.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
  }
  ::close(in_pipe[1]);

  SubprocessResult result;
  std::vector<pollfd> fds;
  if (capture_out) fds.push_back({out_pipe[0], POLLIN, 0});
  if (capture_err) fds.push_back({err_pipe[0], POLLIN, 0});
  int status = 0;
  bool exited = false;
  char buffer[1 << 15];
  while (true) {
    bool open_pipes = false;
    for (auto& f : fds) open_pipes |= f.fd >= 0;
    if (!open_pipes) {
      // Only the exit remains to wait for.
      pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r == pid) {
        exited = true;
        break;
      }
      ::usleep(2000);
    } else {
      int ready = ::poll(fds.data(), fds.size(), 50);
      if (ready > 0) {
        for (auto& f : fds) {
          if (f.fd < 0 || (f.revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
          ssize_t n = ::read(f.fd, buffer, sizeof buffer);
          if (n <= 0) {
            ::close(f.fd);
            f.fd = -1;
            continue;
          }
          std::string& sink = (capture_out && f.fd == out_pipe[0]) ? result.stdout_data
                                                                     : result.stderr_data;
          sink.append(buffer, static_cast<size_t>(n));
        }
      }
    }
    bool timeout = options.timeout_seconds > 0 && Now() - start > options.timeout_seconds;
    int signal_seen = g_interrupt != 0 ? static_cast<int>(g_interrupt) : StopSignal();
    bool interrupted = options.stop_on_interrupt && signal_seen != 0;
    bool cancelled = options.cancel != nullptr && options.cancel->load();
    if (timeout || interrupted || cancelled) {
      if (timeout) {
        result.timed_out = true;
      } else if (interrupted) {
        result.interrupted_by = signal_seen;
      } else {
        result.cancelled = true;
      }
      if (options.terminate_grace_seconds > 0) {
        ::kill(-pid, SIGTERM);
        double deadline = Now() + options.terminate_grace_seconds;
        while (::waitpid(pid, &status, WNOHANG) == 0 && Now() < deadline) ::usleep(10000);
        AwaitGroup(pid, deadline - Now());
      } else {
        ::kill(-pid, SIGKILL);
      }
      ::waitpid(pid, &status, 0);
      exited = true;
      for (auto& f : fds)
        if (f.fd >= 0) ::close(f.fd);
      break;
    }
  }
  if (!exited) ::waitpid(pid, &status, 0);
  if (options.terminate_grace_seconds > 0 && !result.timed_out && result.interrupted_by == 0 &&
      !result.cancelled) {
    AwaitGroup(pid, options.terminate_grace_seconds);
  }
  result.seconds = Now() - start;
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  if (result.timed_out && result.signal == 0 && result.exit_code == 0) {
    result.exit_code = -1;
    result.signal = SIGKILL;
  }
  return result;
}

}  // namespace tracespec
