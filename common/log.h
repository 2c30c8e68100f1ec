// Progress and diagnostics on stderr. Library code reports progress through
// a Progress object so that the CLI decides whether (and how) it is shown.
#ifndef TRACESPEC_COMMON_LOG_H_
#define TRACESPEC_COMMON_LOG_H_

#include <string>

#include "absl/strings/string_view.h"

namespace tracespec {

enum class Verbosity { kQuiet = 0, kNormal = 1, kVerbose = 2 };

// Process-wide verbosity, set once by the CLI from --quiet/--verbose.
void SetVerbosity(Verbosity verbosity);
Verbosity GetVerbosity();

// "tracespec: <message>" on stderr unless quiet.
void Info(absl::string_view message);
// Only with --verbose.
void Debug(absl::string_view message);
// Always shown: "tracespec: warning: <message>".
void Warn(absl::string_view message);

// Reports "<what> k/n" progress lines for long work, at most a few per
// second, and a final line when done.
class Progress {
 public:
  Progress(absl::string_view what, long total);
  void Advance(long by = 1);
  void Done();
  ~Progress();

 private:
  std::string what_;
  long total_;
  long done_ = 0;
  double last_report_ = 0;
  bool finished_ = false;
};

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_LOG_H_
