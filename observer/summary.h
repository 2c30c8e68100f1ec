// The observe summary: counting what the observations hold (per method,
// redactions) and printing the summary for people.
#ifndef TRACESPEC_OBSERVER_SUMMARY_H_
#define TRACESPEC_OBSERVER_SUMMARY_H_

#include <string>
#include <vector>

#include "tracespec/v1/observation.pb.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::observer {

// "pkg.Class#name(descriptor)".
std::string MethodLabel(const v1::MethodRef& method);

// Fills summary.methods, summary.redactions, summary.observations and
// summary.unattributed_observations from `observations`. `withheld` lists
// "Class.field" names the probe withheld (also under OMIT, where no value
// shows them); they appear with the count of values seen (0 under OMIT).
void CountObservations(const std::vector<v1::Observation>& observations,
                       const std::vector<std::string>& withheld, v1::ObserveSummary* summary);

// The summary as a few readable lines; `out_dir` is named for the files.
std::string FormatSummary(const v1::ObserveSummary& summary, const std::string& out_dir);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_SUMMARY_H_
