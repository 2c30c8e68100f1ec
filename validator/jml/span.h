// Source positions of JML text: every token and AST node carries the file,
// the 1-based line and column where it starts and where it ends.
#ifndef TRACESPEC_VALIDATOR_JML_SPAN_H_
#define TRACESPEC_VALIDATOR_JML_SPAN_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tracespec::jml {

// Columns count Unicode code points from 1 (a tab is one column). The end
// is exclusive: the position just after the last character.
struct SourceSpan {
  std::shared_ptr<const std::string> file;  // shared by every node of one file
  int line = 0;
  int column = 0;
  int end_line = 0;
  int end_column = 0;

  const std::string& FileName() const;
  // "file:line:column" ("line:column" without a file).
  std::string ToString() const;
  bool valid() const { return line > 0; }
  // The span from the start of `begin` to the end of `end`.
  static SourceSpan Join(const SourceSpan& begin, const SourceSpan& end);
};

// InvalidArgument "file:line:column: message".
absl::Status ErrorAt(const SourceSpan& span, absl::string_view message);
// Unimplemented "file:line:column: unsupported ...": valid JML this front-end
// does not handle.
absl::Status UnsupportedAt(const SourceSpan& span, absl::string_view message);

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_SPAN_H_
