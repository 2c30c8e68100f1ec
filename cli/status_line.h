// A status line on stderr for long work: on a terminal one line rewritten
// in place, its elapsed time ticking every second, with plain lines
// printed above it; when stderr is not a terminal (a CI log, a pipe) or
// with --quiet, no status at all — only the plain lines.
#ifndef TRACESPEC_CLI_STATUS_LINE_H_
#define TRACESPEC_CLI_STATUS_LINE_H_

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "absl/time/time.h"

namespace tracespec::cli {

class StatusLine {
 public:
  StatusLine();
  ~StatusLine();
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;

  // Whether the status is shown (stderr is a terminal, not --quiet).
  bool live() const { return live_; }
  // Shows `text` with the time elapsed since `since` (nothing unless live).
  void Set(const std::string& text, absl::Time since);
  // Prints `line` as an ordinary stderr line (common/log.h Info), above the
  // status.
  void Print(const std::string& line);
  // Clears the status and stops the ticker; idempotent.
  void Finish();

 private:
  void Tick();
  void ClearLocked();
  void RedrawLocked();

  const bool live_;
  std::mutex mu_;
  std::condition_variable stopped_;
  bool stop_ = false;
  std::string status_;  // shown when non-empty
  absl::Time since_;
  std::thread ticker_;
};

}  // namespace tracespec::cli

#endif  // TRACESPEC_CLI_STATUS_LINE_H_
