// The report people read: what `tracespec run` found, per method, as one
// self-contained HTML page and the same content in Markdown.
//
// Reads the output directory OUT of `tracespec run`:
//   OUT/observations/   observe's output (observations.pb, summary.json, ...)
//   OUT/infer/          infer's run directory (agent/loop/run_dir.h), with
//                       audit.jsonl when a remote model was used
//   OUT/specs/<package path>/<Class>.jml   the contracts, merged per class
// and writes OUT/report.html and OUT/report.md, each atomically. Per method:
// the contract, the history bits in the paper's notation ("10,11"), each
// round's validation, counterexamples and observations as readable values,
// excluded tests, what was redacted, and what left the machine with the
// audit log's head hash (or that nothing did).
//
// The HTML needs no script and loads nothing: inline CSS, no URL of any
// kind. Every text the report did not write itself is escaped (escape.h):
// observed strings are untrusted input. The same directory gives the same
// bytes: everything is sorted, nothing depends on the clock or the path.
#ifndef TRACESPEC_AGENT_REPORT_REPORT_H_
#define TRACESPEC_AGENT_REPORT_REPORT_H_

#include <string>

#include "absl/status/status.h"
#include "agent/report/run_view.h"

namespace tracespec::report {

// Reads `out_dir` and writes `out_dir`/report.html and report.md. On error
// (not an output directory, a file that does not parse) neither file is
// touched.
absl::Status WriteReports(const std::string& out_dir);

// The two renderings of a view (WriteReports writes these).
std::string RenderHtml(const RunView& run);
std::string RenderMarkdown(const RunView& run);

}  // namespace tracespec::report

#endif  // TRACESPEC_AGENT_REPORT_REPORT_H_
