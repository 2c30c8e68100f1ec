// What the benchmark drivers that run projects one by one share: their work
// directory and running independent jobs on a few threads in list order.
#ifndef TRACESPEC_BENCH_COMMON_RUNS_H_
#define TRACESPEC_BENCH_COMMON_RUNS_H_

#include <cstddef>
#include <functional>
#include <string>

#include "absl/status/statusor.h"

namespace tracespec::bench {

// The directory a bench works in: `dir`, made if it is not there, or, when
// `dir` is empty, a fresh temporary directory named after `prefix`
// (*temporary says which).
absl::StatusOr<std::string> OpenWorkDir(const std::string& dir, const std::string& prefix,
                                        bool* temporary);

// Calls run(i) for every i in [0, n) on `jobs` threads, which take the
// indices in order; after each, done(i, finished) runs under a lock, with
// the number of calls finished so far (for progress lines).
void RunInOrder(size_t n, int jobs, const std::function<void(size_t)>& run,
                const std::function<void(size_t, int)>& done);

}  // namespace tracespec::bench

#endif  // TRACESPEC_BENCH_COMMON_RUNS_H_
