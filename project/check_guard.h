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

// The class a spec file is for: "specs/shop/Price.jml" -> "shop.Price".
std::string ClassOfSpecFile(const std::string& file);

// What a run lost against `previous` (the run.json it replaces).
struct Losses {
  // Had a contract in `previous` and have none in `now`, in `previous`'s
  // order.
  std::vector<std::string> since_previous;
  // `previous`'s own losses not accepted (its contracts_lost) that still
  // have no contract in `now`, in its order: a loss stays until the method
  // has a contract again or a run accepts it.
  std::vector<std::string> carried;
};
Losses LostContracts(const v1::RunSummary& previous, const v1::RunSummary& now);

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

// One instance invariant a class's .jml file under OUT/specs states: what
// the check of every contract of the class assumes at entry and proves at
// its exits, so what `check` must prove over the class's other methods.
struct StoredInvariant {
  std::string text;  // printed canonically ("size <= items.length")
  int line = 0;      // in the file
  // Not among the invariants run.json records for the class: added or
  // changed by hand since the run.
  bool edited = false;
};

// The instance invariants of one class declared in a .jml file under
// OUT/specs, compared with those run.json records for it.
struct StoredClassInvariants {
  std::string class_name;  // binary name, "bank.Account"
  std::string spec_file;   // relative to OUT, "specs/bank/Account.jml"
  std::vector<StoredInvariant> invariants;  // in the file's order
  // Recorded by run.json for the class and no longer in its file
  // (removed or changed by hand): neither assumed nor checked any more.
  std::vector<std::string> removed;
};

// What OUT/specs holds, as `check` checks it.
struct StoredSpecs {
  // The stored contract of every method run.json puts in a spec file, in
  // run.json's order.
  std::vector<StoredContract> contracts;
  // Per class of the files (sorted by file, then as declared) that states
  // an instance invariant or had one recorded by the run.
  std::vector<StoredClassInvariants> invariants;
};

// The stored contracts and invariants, when OUT/specs holds exactly the
// contracts run.json records: every .jml file is one of `summary`'s spec
// files and every spec file it names exists, each file holds a contract of
// each method run.json puts there, and no contract of any other method.
// Otherwise a FailedPrecondition naming every disagreement with its file
// and line ("OUT/specs/a/B.jml:12: a contract of a.B#m()V, which
// OUT/run.json does not name"). A contract that does not parse, and every
// contract of a .jml file that does not, is returned with its
// `parse_error`: one bad annotation does not stop the others from being
// checked (a file that does not parse and holds no contract, only
// invariants: a FailedPrecondition with the parser's message). Invariants may differ from run.json's (StoredInvariant::edited,
// StoredClassInvariants::removed): check proves what the files state.
absl::StatusOr<StoredSpecs> ReadStoredSpecs(const std::string& out_dir,
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
