// What `tracespec check` verifies before it checks anything, so that the
// CI guard cannot pass having checked nothing, or the wrong thing: the
// contracts under OUT/specs are exactly the ones run.json records, method
// by method, and the class files it will check are not older than their
// sources.
#ifndef TRACESPEC_PROJECT_CHECK_GUARD_H_
#define TRACESPEC_PROJECT_CHECK_GUARD_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "project/config.h"
#include "tracespec/v1/run.pb.h"

namespace tracespec::project {

// The file a failed `tracespec run` writes in OUT instead of run.json
// (a RunSummary whose `error` says why), removed by the next good run.
inline constexpr char kFailedRunJson[] = "failed-run.json";

// Records in OUT/failed-run.json that a run has started and not finished
// (`summary` as far as it is known; its `error` says when and which
// process), before the run changes anything else in OUT. A run killed
// outright (SIGKILL, out of memory, a crash) records nothing more, so
// `check` keeps refusing; a run that fails replaces it with its error, one
// that succeeds removes it.
absl::Status RecordRunStarted(const std::string& out_dir, v1::RunSummary summary);

// A FailedPrecondition naming the tests the run recorded as failed
// (`summary.failed_tests`, run.json in `out_dir`); OK when none failed.
// The contracts were inferred from code the project's own tests reject,
// and the methods only those tests called have none: `check` must not
// pass on them.
absl::Status RefuseFailedTests(const std::string& out_dir, const v1::RunSummary& summary);

// The methods that had a contract in `previous` (the run.json a run
// replaces) and have none in `now`, in `previous`'s order.
std::vector<std::string> LostContracts(const v1::RunSummary& previous, const v1::RunSummary& now);

// A target method whose contract `check` does not check.
struct UncoveredTarget {
  std::string method;
  // Its entry in run.json (covered, with no contract); null: run.json has
  // none (added since the run).
  const v1::MethodRun* run = nullptr;
};

// The methods of `targets` (the project's targets as the class files now
// are) that `summary` records without a contract, in run.json's order,
// then those it does not record at all, sorted.
std::vector<UncoveredTarget> UncoveredTargets(const std::vector<std::string>& targets,
                                              const v1::RunSummary& summary);

// One method's contract as it stands under OUT/specs.
struct StoredContract {
  // As run.json names it: "bank.Account#deposit(I)V".
  std::string method;
  // Relative to OUT ("specs/bank/Account.jml"), and the line of the
  // contract's first annotation there.
  std::string spec_file;
  int line = 0;
  // The contract differs from the one run.json recorded for the method
  // (compared as parsed JML: layout and comments do not count). Editing
  // specs/ by hand is allowed; check says so.
  bool edited = false;
  // Not empty: the contract does not parse (or, with `whole_file`, its
  // .jml file does not), and this is the parser's message naming file,
  // line, column and construct ("OUT/specs/a/B.jml:12:5: unknown clause
  // keyword 'ensure' (did you mean 'ensures'?)"). `line` is then the
  // line of the message. Check counts the contract as broken without
  // validating it; the file's other contracts are still checked.
  std::string parse_error;
  // The whole file does not parse (Java syntax the scanner cannot skip, a
  // malformed class-level annotation): every contract run.json puts in it
  // carries the same `parse_error`.
  bool whole_file = false;
};

// "specs/bank/Account.jml:14", for messages.
std::string Where(const StoredContract& contract);

// The stored contract of every method run.json puts in a spec file, in
// run.json's order, when OUT/specs holds exactly those: every .jml file is
// one of `summary`'s spec files and every spec file it names exists, each
// file holds a contract of each method run.json puts there, and no
// contract of any other method. Otherwise a FailedPrecondition naming
// every disagreement with its file and line ("OUT/specs/a/B.jml:12: a
// contract of a.B#m()V, which OUT/run.json does not name"). A contract
// that does not parse, and every contract of a .jml file that does not,
// is returned with its `parse_error`: one bad annotation does not stop
// the others from being checked.
absl::StatusOr<std::vector<StoredContract>> ReadStoredContracts(const std::string& out_dir,
                                                                const v1::RunSummary& summary);

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
