// See status_line.h.
#include "cli/status_line.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "common/log.h"

namespace tracespec::cli {

StatusLine::StatusLine() : live_(::isatty(2) != 0 && GetVerbosity() != Verbosity::kQuiet) {
  if (live_) ticker_ = std::thread([this] { Tick(); });
}

StatusLine::~StatusLine() { Finish(); }

void StatusLine::Set(const std::string& text, absl::Time since) {
  if (!live_) return;
  std::lock_guard<std::mutex> lock(mu_);
  status_ = text;
  since_ = since;
  RedrawLocked();
}

void StatusLine::Print(const std::string& line) {
  std::lock_guard<std::mutex> lock(mu_);
  ClearLocked();
  Info(line);
}

void StatusLine::Finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ClearLocked();
    stop_ = true;
  }
  stopped_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void StatusLine::Tick() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    stopped_.wait_for(lock, std::chrono::seconds(1));
    if (!stop_ && !status_.empty()) RedrawLocked();
  }
}

void StatusLine::ClearLocked() {
  if (live_ && !status_.empty()) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  status_.clear();
}

void StatusLine::RedrawLocked() {
  std::string shown =
      absl::StrFormat("%s (%.0fs)", status_, absl::ToDoubleSeconds(absl::Now() - since_));
  // One terminal line: cut to 150 columns.
  if (shown.size() > 150) shown = shown.substr(0, 147) + "...";
  std::fprintf(stderr, "\r\033[Ktracespec: %s", shown.c_str());
  std::fflush(stderr);
}

}  // namespace tracespec::cli
