// What `tracespec check` verifies before it checks anything, so that the
// CI guard cannot pass having checked nothing, or the wrong thing: the
// contracts under OUT/specs are exactly the ones run.json records, and the
// class files it will check are not older than their sources.
#ifndef TRACESPEC_PROJECT_CHECK_GUARD_H_
#define TRACESPEC_PROJECT_CHECK_GUARD_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "project/config.h"
#include "tracespec/v1/run.pb.h"

namespace tracespec::project {

// The file a failed `tracespec run` writes in OUT instead of run.json
// (a RunSummary whose `error` says why), removed by the next good run.
inline constexpr char kFailedRunJson[] = "failed-run.json";

// OK when every .jml file under OUT/specs is one of `summary`'s spec files
// and holds exactly the method contracts `summary` attributes to it, and
// every spec file `summary` names exists. Otherwise a FailedPrecondition
// naming the first file that disagrees and the counts ("specs/a/B.jml holds
// 3 method contracts; run.json names 2 of them"); a .jml file that does not
// parse: its parse error.
absl::Status SpecsMatchRun(const std::string& out_dir, const v1::RunSummary& summary);

// Sources of `project` newer than their class files, each as "SOURCE is
// newer than CLASS" (paths relative to the project), sorted. Sources are
// the configuration's `sources` (source roots, or single files placed by
// their package declaration), which LoadProject defaults to src/main/java
// when the project has it; a source whose class file does not exist is
// not listed (its top-level class may be named otherwise).
// `*roots_found` (may be null) tells whether any source was there to look at.
std::vector<std::string> StaleSources(const Project& project, bool* roots_found);

}  // namespace tracespec::project

#endif  // TRACESPEC_PROJECT_CHECK_GUARD_H_
