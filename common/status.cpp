// Error-handling helpers; see status.h.
#include "common/status.h"

namespace tracespec {

std::string Located(absl::string_view file, int line, int column,
                    absl::string_view message) {
  std::string out(file);
  if (line > 0) {
    absl::StrAppend(&out, ":", line);
    if (column > 0) absl::StrAppend(&out, ":", column);
  }
  if (!out.empty()) out += ": ";
  absl::StrAppend(&out, message);
  return out;
}

absl::Status InputError(absl::string_view file, int line, int column,
                        absl::string_view message) {
  return absl::InvalidArgumentError(Located(file, line, column, message));
}

absl::Status Annotate(const absl::Status& status, absl::string_view context) {
  if (status.ok()) return status;
  return absl::Status(status.code(),
                      absl::StrCat(context, ": ", status.message()));
}

}  // namespace tracespec
