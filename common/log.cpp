// Progress and diagnostics; see log.h.
#include "common/log.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace tracespec {
namespace {

Verbosity g_verbosity = Verbosity::kNormal;
std::mutex g_mutex;

void Emit(absl::string_view prefix, absl::string_view message) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fprintf(stderr, "tracespec: %.*s%.*s\n", static_cast<int>(prefix.size()),
               prefix.data(), static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
}

double NowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void SetVerbosity(Verbosity verbosity) { g_verbosity = verbosity; }
Verbosity GetVerbosity() { return g_verbosity; }

void Info(absl::string_view message) {
  if (g_verbosity >= Verbosity::kNormal) Emit("", message);
}

void Debug(absl::string_view message) {
  if (g_verbosity >= Verbosity::kVerbose) Emit("", message);
}

void Warn(absl::string_view message) { Emit("warning: ", message); }

Progress::Progress(absl::string_view what, long total)
    : what_(what), total_(total), last_report_(NowSeconds()) {}

void Progress::Advance(long by) {
  done_ += by;
  double now = NowSeconds();
  if (now - last_report_ >= 0.5 && done_ < total_) {
    last_report_ = now;
    Info(what_ + " " + std::to_string(done_) + "/" + std::to_string(total_));
  }
}

void Progress::Done() {
  if (finished_) return;
  finished_ = true;
  Debug(what_ + " " + std::to_string(done_) + "/" + std::to_string(total_) +
        " done");
}

Progress::~Progress() { Done(); }

}  // namespace tracespec
