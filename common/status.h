// Error-handling helpers over absl::Status (docs/architecture.md): recoverable
// failures are values; messages name the file, line and construct.
#ifndef TRACESPEC_COMMON_STATUS_H_
#define TRACESPEC_COMMON_STATUS_H_

#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace tracespec {

// "file:line:column: message" (line/column omitted when 0).
std::string Located(absl::string_view file, int line, int column,
                    absl::string_view message);

// InvalidArgument error carrying a "file:line:column: " prefix.
absl::Status InputError(absl::string_view file, int line, int column,
                        absl::string_view message);

// Prepends "context: " to a status message, keeping its code.
absl::Status Annotate(const absl::Status& status, absl::string_view context);

}  // namespace tracespec

#define TS_STATUS_CONCAT_INNER_(a, b) a##b
#define TS_STATUS_CONCAT_(a, b) TS_STATUS_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (an absl::Status) is an error.
#define TS_RETURN_IF_ERROR(expr)                  \
  do {                                            \
    ::absl::Status ts_status_ = (expr);           \
    if (!ts_status_.ok()) return ts_status_;      \
  } while (false)

// `TS_ASSIGN_OR_RETURN(auto x, Foo());` unwraps an absl::StatusOr or returns
// its error from the enclosing function.
#define TS_ASSIGN_OR_RETURN(lhs, expr) \
  TS_ASSIGN_OR_RETURN_IMPL_(TS_STATUS_CONCAT_(ts_statusor_, __LINE__), lhs, expr)
#define TS_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#endif  // TRACESPEC_COMMON_STATUS_H_
