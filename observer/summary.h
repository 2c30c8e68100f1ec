// The observe summary: counting what the observations hold (per method,
// redactions) and printing the summary for people.
#ifndef TRACESPEC_OBSERVER_SUMMARY_H_
#define TRACESPEC_OBSERVER_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tracespec/v1/observation.pb.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::observer {

// "pkg.Class#name(descriptor)".
std::string MethodLabel(const v1::MethodRef& method);

// Counts what observations hold, one at a time (a run can record millions).
class ObservationCounter {
 public:
  // `withheld` lists "Class.field" names the probe withheld (also under
  // OMIT, where no value shows them); they are reported with the count of
  // redacted values seen (0 under OMIT).
  explicit ObservationCounter(const std::vector<std::string>& withheld);
  void Add(const v1::Observation& observation);
  // Sets summary.methods, redactions, observations and
  // unattributed_observations.
  void Fill(v1::ObserveSummary* summary) const;

 private:
  std::map<std::string, v1::MethodSummary> methods_;
  std::map<std::string, int64_t> redacted_;
  int64_t observations_ = 0;
  int64_t unattributed_ = 0;
};

// "passed", "FAILED", "skipped", "INTERRUPTED" or "not run".
const char* StatusName(v1::TestStatus status);

// What a failed entry that is not a test stands for ("failed outside its
// tests (@BeforeAll, ...)", "its JVM ended with exit code 1 but reported
// no failing test or container"; `jvm_result` is the summary's), or "".
std::string FailedEntryNote(const v1::TestSummary& test, const std::string& jvm_result);

// What noninterference did, as one line (no newline): the runs compared
// and the values withheld, why no runs were compared, or that it was off.
std::string NoninterferenceLine(const v1::ObserveSummary& summary);

// The summary as a few readable lines; `out_dir` is named for the files.
std::string FormatSummary(const v1::ObserveSummary& summary, const std::string& out_dir);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_SUMMARY_H_
