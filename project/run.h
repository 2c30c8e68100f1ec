// `tracespec run` and `tracespec check` as library calls.
//
// RunProject: loads the project (config.h), runs its build command, runs
// its tests under the probe (observer::Observe, reused when nothing it
// depends on changed), infers a contract per target method
// (loop::RunInfer, `jobs` methods at a time, each with its own validator;
// a re-run continues from infer's journal), merges the passing contracts
// into one .jml file per class (spec_files.h) and records everything in
// OUT/run.json. The layout of OUT is described in proto/tracespec/v1/run.proto.
//
// CheckProject: re-validates every contract under OUT/specs against the
// current build (consistency only: no model, no observations).
#ifndef TRACESPEC_PROJECT_RUN_H_
#define TRACESPEC_PROJECT_RUN_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent/gateway/gateway.h"
#include "agent/strength/mutation.h"
#include "project/config.h"
#include "tracespec/v1/run.pb.h"
#include "validator/check/validator.h"

namespace tracespec::project {

// What the work is doing, for a progress display. Calls are serialized.
struct ProgressEvent {
  enum class Kind {
    kStage,         // a project-wide step ("build", "observe", ...); `text` says what
    kMethodStart,   // a method's inference starts
    kMethodUpdate,  // a line of its refinement ("round 1: 11 (consistency PASS ...)")
    kMethodDone,    // it ended; `text` is its result ("Success 11 (rounds: 11)")
  };
  Kind kind = Kind::kStage;
  std::string method;
  std::string text;
  // Seconds since the method (kMethod*) or the run (kStage) started.
  double elapsed = 0;
  // Methods finished and in all.
  int done = 0;
  int total = 0;
};
using ProgressFn = std::function<void(const ProgressEvent&)>;

struct RunOptions {
  std::string project_dir = ".";
  // Default PROJECT_DIR/tracespec-out.
  std::string out_dir;
  // Methods inferred at once (each with its own validator).
  int jobs = 1;
  ProgressFn progress;
  // The validators of the methods' rounds (loop::InferOptions); unset: in
  // process.
  check::ValidatorFactory make_validator;
  // Non-empty: the model is `tracespec serve gateway` at this address
  // (loop::InferOptions::gateway), whatever the project's model says; its
  // endpoint's model name, impl_src and anonymize still apply, its url,
  // api_key_env, egress_policy, timeout and attempts are the gateway's.
  // make_gateway_client is then required.
  std::string gateway;
  gateway::GatewayClientFactory make_gateway_client;
  // `--no-noninterference`: observe as with `observe_noninterference: false`,
  // whatever the configuration says.
  bool no_noninterference = false;
  // `--accept-lost`: the contracts this run finds lost (against the
  // previous run, or carried from an earlier one) are recorded as accepted
  // (RunSummary.contracts_lost_accepted) instead of lost, so that neither
  // `tracespec check` nor the next run holds them against it.
  bool accept_lost = false;
};

struct RunResult {
  v1::RunSummary summary;
  std::string out_dir;  // absolute
  // One line per method and the files written, for people.
  std::string text;
};

// Errors that stop the run (no project, bad configuration, failed build,
// tests that cannot be run, unwritable OUT) are returned as a status; when
// OUT could be created, run.json records them too. Per-method outcomes are
// in the summary.
absl::StatusOr<RunResult> RunProject(const RunOptions& options);

// Appends `method` to `summary` and counts it: not observed, a contract
// that holds and says something (succeeded), one that holds but says
// nothing about the outcome (vacuous), or none.
void AddMethodRun(v1::MethodRun method, v1::RunSummary* summary);

// The methods whose contract the run of `summary` lost and did not accept
// (`contracts_lost`: against the run before it, or carried from an earlier
// one: LostContract::carried), each with the run's line for it ("no
// longer a target" when the run has no entry for it).
std::vector<v1::LostContract> LostContractsOf(const v1::RunSummary& summary);

// RunResult::text of `summary` (its files shown under `out_dir`): a line
// per method and the counts — contracts that hold and say something,
// those that hold but say nothing about the outcome, none, not observed.
std::string RunSummaryText(const std::string& out_dir, const v1::RunSummary& summary);

// Runs the project's build command (if any) from the project directory,
// its output going to `log_path`; a failure is a FailedPrecondition
// quoting the output's last lines. Returns the seconds it took.
absl::StatusOr<double> RunBuild(const Project& project, const std::string& log_path);

// The default output directory of a project.
std::string DefaultOutDir(const Project& project);

enum class Verdict { kHolds, kBroken, kUndecided };
const char* VerdictName(Verdict verdict);  // "holds", "BROKEN", "undecided"

struct MethodCheck {
  std::string method;
  // Not a stored contract: the method checked against its class's object
  // invariants alone (a constructor, a method without a contract).
  bool invariants_only = false;
  std::string spec_file;  // relative to OUT
  int line = 0;           // of the contract in spec_file
  // The contract differs from the one run.json recorded (StoredContract).
  bool edited = false;
  Verdict verdict = Verdict::kHolds;
  // The validator's consistency line, or why it could not be checked.
  std::string summary;
  // Readable counterexamples (clause and values).
  std::vector<std::string> counterexamples;
  // The contract, or with `whole_file` its .jml file, does not parse: the
  // parser's message (file, line, column, construct). Broken, not validated.
  std::string parse_error;
  bool whole_file = false;
};

struct CheckOptions {
  std::string project_dir = ".";
  std::string out_dir;
  ProgressFn progress;
  // The validator the contracts are checked with; unset: in process.
  check::ValidatorFactory make_validator;
  // A contract or object invariant edited since the run is a refusal
  // (FailedPrecondition, each named with file:line) instead of a note: for
  // pipelines where contracts change only through `tracespec run`.
  bool frozen = false;
  // Contracts the last run lost and did not accept (RunSummary.contracts_lost)
  // are a note instead of a failure, for this check only: the next run
  // still carries them unless it runs with RunOptions::accept_lost.
  bool accept_lost = false;
};

struct CheckResult {
  std::vector<MethodCheck> methods;
  int holds = 0;
  int broken = 0;
  int undecided = 0;
  // Contracts and object invariants edited since the run (checked as they
  // stand; an invariant removed from its file is no longer checked).
  int edited = 0;
  // Target methods (as the class files now are) with no contract checked
  // here, and how many of them run.json has no entry for (added since the
  // run: `tracespec check` exits 3).
  int not_covered = 0;
  int added_since_run = 0;
  // Contracts the last run lost and did not accept (listed; unless
  // CheckOptions::accept_lost, `tracespec check` exits 3).
  int lost = 0;
  std::string text;
  // The same as data (`tracespec check --json`).
  v1::CheckSummary summary;
};

// Reads OUT/run.json (missing: NotFound, "run `tracespec run` first"; or
// FailedPrecondition when OUT/failed-run.json says the run failed),
// refuses what check_guard.h refuses, runs the build command, and checks
// each method's contract in its OUT/specs file against the class files now
// on disk, then the object invariants the OUT/specs files state over every
// constructor and non-private instance method without a contract (a
// contract's check proves them at its exits). Contracts and invariants
// edited since the run are checked as they stand, and listed. A contract
// that no longer parses (or whose .jml file does not: said once for the
// file), no longer type-checks or whose method is gone counts as broken;
// the other contracts are still checked.
absl::StatusOr<CheckResult> CheckProject(const CheckOptions& options);

struct StrengthOptions {
  std::string project_dir = ".";
  std::string out_dir;
  // Mutation analysis (agent/strength/mutation.h): mutants of each method
  // run against the project's tests and checked against its contract.
  // False: skipped, and the text says so.
  bool mutants = true;
  int max_mutants = 40;  // per method (0: all)
  // One line per mutant, for a progress display.
  std::function<void(const std::string&)> progress;
};

struct ProjectStrength {
  // One per method with a contract in OUT/run.json, sorted by method.
  std::vector<std::pair<std::string, check::StrengthResult>> methods;
  // The same methods' mutant figures; empty when mutants were skipped.
  std::vector<std::pair<std::string, strength::MutantResult>> mutants;
  // check::FormatStrengthTable of `methods`, then strength::FormatMutantTable
  // of `mutants` (or "mutants: skipped (--no-mutants)").
  std::string text;
};

// Reads OUT/run.json (missing: NotFound, "run `tracespec run` first") and
// measures the strength of each method's contract (its OUT/specs file) on
// the observations the run recorded, with the class files as they are now
// (no build). A method whose contract no longer checks is listed as not
// measured, with the reason. With `mutants`, each method's mutants are run
// against the project's tests (`tests` of the configuration, on the class
// files and test classes as they are now; a `command` project has none)
// and checked against its contract; tests JUnit cannot run are an error.
// The mutant figures are then recorded in OUT/run.json and each method's
// result.json (strength.mutants), and the report is written again.
absl::StatusOr<ProjectStrength> MeasureProjectStrength(const StrengthOptions& options);

}  // namespace tracespec::project

#endif  // TRACESPEC_PROJECT_RUN_H_
