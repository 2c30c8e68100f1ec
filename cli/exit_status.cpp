// The exit statuses: error statuses to codes, and the `--help` footers
// generated from kExitStatusTable (commands.h).
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"

namespace tracespec::cli {

ExitCode ExitCodeFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return kExitOk;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kUnimplemented:
      return kExitInputError;
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kDeadlineExceeded:
    case absl::StatusCode::kResourceExhausted:
      return kExitEnvironment;
    case absl::StatusCode::kCancelled:
      return kExitInterrupted;
    default:
      return kExitInternal;
  }
}

int ReportError(const absl::Status& status) {
  std::fprintf(stderr, "tracespec: error: %s\n", std::string(status.message()).c_str());
  return ExitCodeFor(status);
}

std::string ExitStatusFooter(const std::map<ExitCode, std::string>& details) {
  std::string out = "Exit status:";
  const char* separator = " ";
  for (const ExitStatusRow& row : kExitStatusTable) {
    auto it = details.find(row.code);
    bool optional =
        row.code == kExitCheckFailed || row.code == kExitUnknown || row.code == kExitInterrupted;
    if (optional && it == details.end()) continue;
    absl::StrAppend(&out, separator, static_cast<int>(row.code), " ", row.meaning);
    if (it != details.end() && !it->second.empty()) absl::StrAppend(&out, " (", it->second, ")");
    separator = ", ";
  }
  return out + ".";
}

}  // namespace tracespec::cli
