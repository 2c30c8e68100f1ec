// What the report shows, read from the output directory of `tracespec run`
// (layout in report.h): one view of the run, one per method. The renderers
// (html.cpp, markdown.cpp) turn the same view into report.html and
// report.md, so the two always hold the same content.
#ifndef TRACESPEC_AGENT_REPORT_RUN_VIEW_H_
#define TRACESPEC_AGENT_REPORT_RUN_VIEW_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/audit.pb.h"
#include "tracespec/v1/infer.pb.h"
#include "tracespec/v1/observation.pb.h"
#include "tracespec/v1/run.pb.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::report {

// One finding of the validator in a round (report.json's diagnostics).
struct DiagnosticView {
  std::string check;  // "consistency", "coverage" or "contract"
  std::string kind;   // "violated", "well-definedness", "syntax", ...
  int line = 0;       // in the candidate; 0 when about the whole contract
  int column = 0;
  std::string clause;
  std::string message;
};

// One concrete behaviour the validator found against a candidate.
struct CounterexampleView {
  std::string check;        // "consistency" (an execution of the bytecode) or "coverage"
  std::string explanation;  // which clause, which values (the validator's words)
  // The behaviour as one readable line (arguments and fields before the
  // call -> outcome; after: what changed), or "" when it did not parse.
  std::string behaviour;
  std::string test_id;  // coverage: the test that recorded it
  bool excluded = false;
};

struct RoundView {
  int round = 0;
  v1::RoundOutcome outcome = v1::ROUND_OUTCOME_UNSPECIFIED;
  std::string bits;
  std::string consistency;  // one line each, as the validator put it
  std::string coverage;
  std::string error;
  std::vector<std::string> hypotheses;
  std::vector<v1::InferRepair> repairs;
  std::vector<DiagnosticView> diagnostics;
  std::vector<CounterexampleView> counterexamples;
};

// Observations of one method that render the same, merged.
struct BehaviourView {
  std::string behaviour;              // one readable line
  int count = 0;                      // calls with this behaviour
  std::vector<std::string> test_ids;  // sorted, distinct
  // Some of them come from excluded tests (never sent anywhere).
  bool excluded = false;
};

// A measure of how much a contract says, from result.json's strength
// (determinism, output-perturbation completeness; see check::StrengthResult).
// Empty when not measured: the report then leaves the section out.
struct StrengthFigure {
  std::string name;   // "result pinned", ...
  std::string value;  // "17/17 observations", ...
};

struct MethodView {
  std::string method;    // as resolved: "bank.Account#deposit(I)V"
  // For people: "bank.Account#deposit(int)" (MethodId::Display; the key
  // when the method never resolved).
  std::string display;
  std::string dir_name;  // its directory under infer/
  v1::InferResult result;
  // The file that holds the contract shown, relative to the output
  // directory: the merged specs/<package path>/<Class>.jml when run.json
  // says the method's contract is in it (a succeeded method of a run),
  // else infer's own file of the last contract tried; empty when no
  // contract was tried (ContractFileCell says "none").
  std::string contract_file;
  std::vector<RoundView> rounds;
  std::vector<StrengthFigure> strength;
  // Observations of this method: distinct behaviours in order of first
  // occurrence (at most kMaxBehaviours), and the totals.
  std::vector<BehaviourView> behaviours;
  int observations = 0;
  int excluded_observations = 0;
  int distinct_behaviours = 0;
  // Tests whose observations of this method were excluded, with the reason.
  std::vector<std::pair<std::string, std::string>> excluded_tests;
  // Fields whose values were withheld in this method's observations
  // ("bank.Account.auditKey"), with how many values.
  std::vector<std::pair<std::string, int>> redacted;
  // The audit records of this method's requests and answers.
  std::vector<v1::AuditRecord> audit;
  // Answers came from a model endpoint (client is its URL), not the
  // built-in synthesizer.
  bool remote() const { return !result.client().empty() && result.client() != "builtin"; }
};

// The audit log of the run (infer/audit.jsonl), when there is one.
struct AuditView {
  bool present = false;
  bool intact = false;
  int records = 0;
  std::string head_hash;
  int first_bad_line = 0;
  std::string problem;
  // Signed records (CHECKPOINT, SEAL): how many, the sequence of the last
  // SEAL, the key id of the last signed record. The signatures themselves
  // are not checked here (that needs the public key: tracespec audit verify
  // --public-key).
  int signed_records = 0;
  int seals = 0;
  int last_seal = 0;
  std::string signing_key_id;
  int outbound_allowed = 0;
  int outbound_blocked = 0;
  int outbound_dry_run = 0;
  uint64_t bytes_sent = 0;
  std::vector<std::string> destinations;  // of allowed requests, sorted, distinct
};

struct RunView {
  // OUT/run.json, when `tracespec run` wrote one (absent for directories
  // arranged by hand from observe's and infer's outputs).
  std::optional<v1::RunSummary> run;
  // Targets run.json lists that have no infer result: never called by a
  // test, or never started (with the reason).
  std::vector<v1::MethodRun> not_inferred;
  std::optional<v1::ObserveSummary> observe;
  std::vector<MethodView> methods;  // sorted by method
  AuditView audit;
};

// Behaviours listed per method; the rest are counted.
inline constexpr int kMaxBehaviours = 200;

// Reads the output directory. Missing parts (no run.json, no observations, no audit log)
// are left empty; a file that exists but does not parse is an error naming
// it; a directory with neither observations/ nor infer/ is an error.
absl::StatusOr<RunView> LoadRunView(const std::string& out_dir);

}  // namespace tracespec::report

#endif  // TRACESPEC_AGENT_REPORT_RUN_VIEW_H_
