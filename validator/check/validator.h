// The JML checks of one method against its bytecode and its recorded
// observations (validator/README.md, "JML checks"):
//
//   consistency — every pre-state satisfying a spec case's `requires` (and
//     the class invariant) leads, within the bounds (loops unwound k times,
//     input arrays of length <= L), only to post-states satisfying that
//     case's ensures / signals / signals_only / assignable;
//   coverage — every recorded observation is admitted by the specification
//     (some case's requires holds on its pre-state and every case whose
//     requires holds has its post-condition hold); the method is not run;
//     fields the observation did not record are free.
//
// Every FAIL carries counterexamples as v1::Observation (source
// COUNTEREXAMPLE) with a readable explanation; well-definedness problems
// of clauses (null dereference, index out of bounds, division by zero) are
// diagnostics with a counterexample of their own.
//
//   TS_ASSIGN_OR_RETURN(auto validator, check::Validator::Create(class_path));
//   check::ValidateRequest request;
//   request.method = "bank.Account#deposit";
//   request.contract = "//@ ensures balance == \\old(balance) + amount;";
//   TS_ASSIGN_OR_RETURN(check::ValidationReport report, validator->Validate(request));
//   report.Bits()   // "11" when both checks pass, "1-" when coverage was skipped
#ifndef TRACESPEC_VALIDATOR_CHECK_VALIDATOR_H_
#define TRACESPEC_VALIDATOR_CHECK_VALIDATOR_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/jml/span.h"
#include "validator/jml/spec_source.h"

namespace tracespec::check {

enum class CheckStatus { kPass, kFail, kError, kUnknown, kSkipped };
const char* CheckStatusName(CheckStatus status);  // "PASS", "FAIL", "ERROR", "UNKNOWN", "SKIPPED"

// One finding about one clause (or about the contract as a whole when the
// span is invalid).
struct Diagnostic {
  enum class Kind {
    kViolated,        // the clause does not hold (consistency or coverage)
    kWellDefinedness, // the clause may be undefined (null, index, division)
    kSyntax,          // JML syntax error
    kType,            // type error, missing field or method
    kUnsupported,     // valid JML this checker does not handle
    kNote,            // informational (assume used, loop invariants ignored, ...)
    kUndecided,       // the time limit ran out on a query about the clause (UNKNOWN)
  };
  Kind kind = Kind::kNote;
  jml::SourceSpan span;    // the clause, in the contract text
  std::string clause;      // the clause's text ("ensures \result >= 0;")
  std::string message;     // one line
  // Indexes into CheckResult::counterexamples that show it (may be empty).
  std::vector<int> counterexamples;
  // A violated invariant given with the request: its index in
  // ValidateRequest::class_invariants (-1: the finding is about something
  // else).
  int given_invariant = -1;
};
const char* DiagnosticKindName(Diagnostic::Kind kind);  // "violated", "well-definedness", ...

struct CheckResult {
  CheckStatus status = CheckStatus::kSkipped;
  // One line: "PASS (complete)", "PASS (within bounds: loop at line 12 cut
  // at k=5)", "FAIL: ensures \result >= 0 (line 3)", "2 of 3 observations
  // admitted", ...
  std::string summary;
  // Consistency: whether the bounds covered every execution; otherwise the
  // loops / recursions that were cut, e.g. "loop at line 12 cut at k=5".
  bool complete = false;
  std::vector<std::string> cuts;
  // Consistency: the cut loops were closed by an induction step (summary
  // "proved (...)"): a PASS for every number of iterations, though not
  // every execution was explored (`complete` stays false, `cuts` lists the
  // bounded run's cuts).
  bool proved = false;
  // Consistency: input lengths (arrays, strings) were cut, so even a proof
  // by induction holds only for inputs within the bound.
  bool inputs_cut = false;
  std::vector<Diagnostic> diagnostics;
  // Concrete behaviours: for consistency, executions of the bytecode the
  // contract excludes; for coverage, the recorded observations it rejects.
  std::vector<v1::Observation> counterexamples;
  // One per counterexample: which clause, which values.
  std::vector<std::string> explanations;
  // Coverage: one line per observation checked, in their order, saying
  // what the check made of it — "admitted", "undecided: REASON",
  // "rejected: WHY", "undefined: WHY", "rejected as its failing test
  // expects: WHY" — so that equal lines are equal verdicts.
  std::vector<std::string> verdicts;
  // Coverage: observations admitted / given.
  int admitted = 0;
  int total = 0;
  double seconds = 0;
  // Consistency: the longest solver query of a frame (`assignable`) check,
  // in seconds (0 when no frame query was asked: no contract frame, or
  // nothing written).
  double frame_seconds = 0;
};

struct ValidateRequest {
  // "pkg.C#m", "pkg.C#m(I)V" (overloads need the descriptor).
  std::string method;
  // The contract: a .jml file's or a Java source file's content, or a bare
  // specification text (`//@ requires ...;` lines or unprefixed clauses).
  std::string contract;
  std::string contract_file = "<contract>";  // for messages; its extension picks the format
  jml::ContractFormat format = jml::ContractFormat::kAuto;
  // Coverage is SKIPPED when has_observations is false.
  bool has_observations = false;
  std::vector<v1::Observation> observations;
  int unwind = 4;
  int max_array = 4;
  double timeout_seconds = 60;
  // Loop invariants of a .java contract are checked at every arrival at
  // their loop within the bounds unless this is false (then ignored, with a
  // note).
  bool check_loop_invariants = true;
  // Only coverage: consistency is SKIPPED (the same contract checked again
  // on other observations costs no solver time).
  bool coverage_only = false;
  // A consistency PASS that cut input lengths is checked again with inputs
  // of up to kDeepenFactor times max_array elements (and loops unwound as
  // far), within a share of the time limit (kDeepenSeconds, or twice the
  // first check's time when longer; never past the request's limit): a
  // counterexample found there makes the verdict FAIL; otherwise the first
  // verdict stands, its cuts as they were.
  bool deepen = true;
  // Instance invariants of the method's class proved elsewhere (`tracespec
  // run` proves them over every constructor and method that can change the
  // fields they read): each a JML expression over the class's fields, added
  // to the invariants the contract's class declares — assumed at entry and
  // checked at every exit like them. Not used for static methods.
  std::vector<std::string> class_invariants;
  // Solve as if these constants of the class files had other values
  // (symex::ExecOptions::substitute_numbers/substitute_texts): the agent
  // solves a counterexample again with the denied constants substituted
  // and withholds what changes (agent/loop/feedback.h). Only consistency
  // reads them; a request with them must not be taken for the real one.
  std::map<int64_t, int64_t> substitute_numbers;
  std::map<std::string, std::string> substitute_texts;
};

inline constexpr int kDeepenFactor = 2;
inline constexpr double kDeepenSeconds = 3.0;

// How much a contract says about the outcomes it admits, measured on the
// recorded observations it admits (see strength.cpp):
//   determinism — per observation one Z3 query over the lowered
//     specification, with the pre-state pinned to the recorded one. An
//     observation no case of the contract applies to (every requires
//     false) is not pinned: the contract says nothing there. Otherwise, for
//     a normal observation: can a normal outcome with a different \result
//     or recorded post-state satisfy it? For one that threw: can any
//     normal outcome (then the contract does not say that it throws)?
//     Unsat: the outcome is pinned. The outcome is compared by contents:
//     strings by their characters, arrays by length and elements, new
//     objects by their fields; every recorded field and array element is
//     part of it. Recorded fields and array elements outside the
//     contract's frame, final fields (outside a constructor) and strings
//     keep their pre-state values. A redacted result, or an array of the
//     post-state recorded in part, is undecided; a redacted field is left
//     out.
//   completeness — per observation, perturbed outcomes (\result or a
//     changed field ±1 and ±k, a boolean flipped, a double one ulp and far
//     off, one array element changed, two unchanged fields of the receiver
//     +1, a return swapped for an exception and back) evaluated against the
//     specification; the share it rejects.
struct StrengthResult {
  bool measured = false;
  // "\result" for a non-void method, "the post-state" for a void one.
  std::string what;
  int observations = 0;  // admitted observations measured, the ones that threw included
  int pinned = 0;        // of `observations`, thrown_pinned included
  int undecided = 0;     // determinism query not decided (timeout, unsupported construct)
  // Of `observations`, the ones where the method threw, and of those the
  // ones where the contract determines that it throws (it applies and
  // admits no normal outcome): counted apart, they never pin `what`.
  int thrown = 0;
  int thrown_pinned = 0;
  int perturbed = 0;     // perturbed outcomes tried
  // Of `perturbed`, those of calls that returned with a value or field
  // changed (not only swapped for an exception).
  int perturbed_values = 0;
  int rejected = 0;
  int perturbed_undecided = 0;  // perturbed outcomes the evaluator could not decide
  // Of `rejected`, the perturbations of a field the call did not change:
  // what a frame alone rejects, saying nothing about the outcome.
  int rejected_unchanged = 0;
  // Why some determinism queries were undecided (first reason), or why
  // nothing was measured.
  std::string note;
  double seconds = 0;
  int returned() const { return observations - thrown; }
  int returned_pinned() const { return pinned - thrown_pinned; }
  // Pinned on fewer than half of the observations that returned (of a
  // method seen only to throw: of the ones that threw).
  bool Weak() const {
    if (!measured) return false;
    return returned() > 0 ? returned_pinned() * 2 < returned() : thrown_pinned * 2 < thrown;
  }
  // Says nothing about the outcome: pins it on no observation (every
  // query decided) and rejects no perturbed outcome but the unchanged
  // fields — a tautology, a bare frame or a clause true of every value the
  // type allows.
  bool Vacuous() const {
    return measured && observations > 0 && pinned == 0 && undecided == 0 && perturbed > 0 &&
           rejected == rejected_unchanged;
  }
  // Percent of perturbed outcomes rejected, rounded down (0 when none).
  int RejectedPercent() const { return perturbed == 0 ? 0 : rejected * 100 / perturbed; }
  // "pins \result on 17/17 observations, rejects 96% of perturbed outcomes";
  // with observations that threw "pins \result on 3/3 observations that
  // returned and the exception on 1/1 that threw, ..." (", weak" appended
  // when Weak(); ", says nothing about the outcome" when Vacuous()).
  std::string Summary() const;
};

// The version of the measure: a strength recorded by an earlier version is
// measured again, not kept.
inline constexpr int kStrengthMeasureVersion = 3;

struct ValidationReport {
  std::string method;  // "bank.Account#deposit(I)V"
  CheckResult consistency;
  CheckResult coverage;
  std::vector<Diagnostic> notes;  // about the contract as a whole
  // Filled by Validator::MeasureStrength only.
  StrengthResult strength;
  // The paper's 2-bit notation: consistency then coverage, '1' for PASS,
  // '0' otherwise, '-' for a check that was skipped (coverage without
  // observations: "1-", not "11", which would say it passed).
  std::string Bits() const;
  bool Passed() const;  // both checks pass (or coverage skipped)
};

class Validator {
 public:
  // `class_path`: ':'-separated directories and jars. Classes are loaded
  // lazily; a malformed class is an error when it is needed.
  static absl::StatusOr<std::unique_ptr<Validator>> Create(const std::string& class_path);
  virtual ~Validator() = default;

  // Errors (status) are reserved for bad requests: unknown class or
  // method, an observation of another method. A contract that does not
  // parse or type-check is a report with both checks ERROR and diagnostics.
  virtual absl::StatusOr<ValidationReport> Validate(const ValidateRequest& request) = 0;
  // The strength of the request's contract on its observations (report.
  // strength); coverage is checked too, consistency is SKIPPED. Same errors
  // as Validate; a contract that does not check leaves strength unmeasured
  // with a note.
  virtual absl::StatusOr<ValidationReport> MeasureStrength(const ValidateRequest& request) = 0;
};

// Makes the validator a stage checks with, for a class path: unset means
// Validator::Create, in process; `--validators` gives one that calls a
// pool of validator services (services/validator/client.h), the stages
// cannot tell.
using ValidatorFactory =
    std::function<absl::StatusOr<std::unique_ptr<Validator>>(const std::string& class_path)>;

// The validator `factory` makes for `class_path`, or Validator::Create's
// when `factory` is unset.
absl::StatusOr<std::unique_ptr<Validator>> MakeValidator(const ValidatorFactory& factory,
                                                         const std::string& class_path);

// Text: one line per check ("consistency: PASS (complete)", "coverage: FAIL
// (2 of 3 observations admitted)"), "result: 01", then diagnostics and
// counterexamples readably.
std::string FormatReportText(const ValidationReport& report);
// One counterexample or observation as FormatReportText shows it: the
// receiver and arguments, every object of the pre- and post-state (arrays
// with their elements), the outcome; each line indented by four spaces.
std::string FormatObservationText(const v1::Observation& observation);
// One JSON document:
// {"method":..., "result":"01",
//  "consistency":{"status":"PASS","summary":...,"complete":true,"cuts":[...],
//                 "diagnostics":[{"kind":...,"line":..,"column":..,"clause":..,"message":..,
//                                 "counterexamples":[0]}],
//                 "counterexamples":[<Observation in protobuf JSON>], "explanations":[...],
//                 "seconds":..},
//  "coverage":{... same, plus "admitted":n,"total":m},
//  "notes":[diagnostics]}
std::string FormatReportJson(const ValidationReport& report);

// The strength of several contracts as a table, one row per (method,
// strength) in the order given, then each row's summary and note:
//   method  observations  pinned  threw  throw pinned  undecided  perturbed  rejected  weak
// (pinned: of the observations that returned; throw pinned: of the ones
// that threw).
// No timings: the same inputs give the same bytes.
std::string FormatStrengthTable(
    const std::vector<std::pair<std::string, StrengthResult>>& rows);

}  // namespace tracespec::check

#endif  // TRACESPEC_VALIDATOR_CHECK_VALIDATOR_H_
