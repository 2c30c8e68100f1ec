// WriteReports: read the output directory, render both reports, write them;
// see report.h.
#include "agent/report/report.h"

#include "common/files.h"
#include "common/status.h"

namespace tracespec::report {

absl::Status WriteReports(const std::string& out_dir) {
  TS_ASSIGN_OR_RETURN(RunView run, LoadRunView(out_dir));
  // Both are rendered before either is written: an error leaves both as
  // they were.
  std::string html = RenderHtml(run);
  std::string markdown = RenderMarkdown(run);
  TS_RETURN_IF_ERROR(WriteFileAtomic(out_dir + "/report.html", html));
  return WriteFileAtomic(out_dir + "/report.md", markdown);
}

}  // namespace tracespec::report
