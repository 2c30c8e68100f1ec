// Source spans; see span.h.
#include "validator/jml/span.h"

#include "absl/strings/str_cat.h"
#include "common/status.h"

namespace tracespec::jml {

const std::string& SourceSpan::FileName() const {
  static const std::string* const kEmpty = new std::string();
  return file ? *file : *kEmpty;
}

std::string SourceSpan::ToString() const {
  std::string out = FileName();
  if (line > 0) {
    if (!out.empty()) out += ":";
    absl::StrAppend(&out, line, ":", column);
  }
  return out;
}

SourceSpan SourceSpan::Join(const SourceSpan& begin, const SourceSpan& end) {
  SourceSpan out = begin;
  out.end_line = end.end_line;
  out.end_column = end.end_column;
  return out;
}

absl::Status ErrorAt(const SourceSpan& span, absl::string_view message) {
  return absl::InvalidArgumentError(Located(span.FileName(), span.line, span.column, message));
}

absl::Status UnsupportedAt(const SourceSpan& span, absl::string_view message) {
  return absl::UnimplementedError(Located(span.FileName(), span.line, span.column, message));
}

}  // namespace tracespec::jml
