// The built-in synthesizer: JML contracts from observations alone, without
// a model and without anything leaving the process. Templates instantiated
// over the values the observations record propose candidate clauses; each
// is evaluated on every observation with exact Java semantics
// (validator/jml/observation_eval.h) and kept only when none refutes it and
// enough distinct calls support it; exceptional calls get
// exceptional_behavior cases whose guard separates them from the others;
// the frame is what the calls were seen to change. Houdini pruning then
// asks an optional oracle (the validator) and drops the clauses it refutes,
// adding its counterexamples to the observations, until a fixpoint.
// Deterministic: the same inputs give the same bytes (work is budgeted in
// evaluation steps, not time).
//
//   synth::SynthesisInput in;
//   in.signature = ...;               // or left empty: taken from observations
//   in.observations = observations;
//   absl::StatusOr<synth::SynthesisResult> r = synth::Synthesize(in, {}, &oracle);
//   r->jml         // "//@ public normal_behavior\n//@   requires ...;\n..."
//   r->hypotheses  // what the evidence suggests but does not support
#ifndef TRACESPEC_AGENT_SYNTH_SYNTHESIZER_H_
#define TRACESPEC_AGENT_SYNTH_SYNTHESIZER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/prompt/signature.h"
#include "agent/synth/oracle.h"
#include "agent/synth/tautologies.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/jml/type_env.h"

namespace tracespec::synth {

struct SynthesisOptions {
  // Terms (values the templates relate) and pre-state atoms considered.
  int max_terms = 48;
  int max_atoms = 240;
  // Candidate clauses tested per spec case.
  int max_candidates = 6000;
  // Evaluation steps per synthesis round (all candidates on all
  // observations); past it, the remaining templates are skipped.
  int64_t work_budget = 40'000'000;
  // Oracle consultations (Houdini rounds).
  int max_oracle_rounds = 8;
  int max_hypotheses = 12;
  // Ensures clauses per spec case.
  int max_clauses = 24;
  // Use observations marked `excluded` (they never leave the process; the
  // contract stays local). Calls of failing tests (`test_failed`, excluded
  // too) are never used either way.
  bool use_excluded = true;
};

struct SynthesisInput {
  // The method; when class or method name is empty it is taken from the
  // first observation.
  prompt::MethodSignature signature;
  // Observations of the method (others are ignored).
  std::vector<v1::Observation> observations;
  // Behaviours the validator reported (counterexamples); they prune like
  // observations.
  std::vector<v1::Observation> counterexamples;
  // Clauses to leave out, e.g. refuted earlier: "ensures P;", "requires P;"
  // (a guard), "signals (E e) P;" or the bare predicate P.
  std::vector<std::string> banned;
  // Classes of the analysed code (the class-file reader's view), consulted
  // before the JDK classes and what the observations show. May be null.
  const jml::TypeEnvironment* classpath = nullptr;
};

// One clause of the result.
struct SynthesizedClause {
  std::string case_label;  // "normal_behavior", "exceptional_behavior java.lang.ArithmeticException"
  std::string text;        // canonical clause, "ensures \result >= 0;"
  std::string family;      // template family; "guard", "frame", "exceptions" for structure
  int support = 0;         // distinct calls it held on (0 for structure)
  int line = 0;            // 1-based line in SynthesisResult::jml
};

struct SynthesisStats {
  int observations = 0;      // of the method, used
  int normal = 0;            // returned
  int exceptional = 0;       // threw
  int counterexamples = 0;   // from the input and the oracle
  int terms = 0;
  int atoms = 0;
  int candidates_tested = 0;
  int clauses = 0;           // in the result
  int oracle_rounds = 0;
  int64_t work = 0;          // evaluation steps, last round
  bool budget_exhausted = false;
};

struct SynthesisResult {
  // The contract as JML annotation lines (ContractAnswer::jml form), type
  // checked, admitting every observation it was built from.
  std::string jml;
  std::vector<std::string> hypotheses;
  // What the validator's refutations did, one note each (also the first
  // hypotheses): clauses kept under a guard that excludes the
  // counterexamples ("weakened: `ensures P;` ... kept as `ensures G ==> P;`")
  // and clauses dropped ("dropped: `ensures P;` ...").
  std::vector<std::string> weakened;
  std::vector<std::string> dropped;
  std::vector<SynthesizedClause> clauses;
  SynthesisStats stats;
  // With an oracle: its last verdict ("PASS", "FAIL: ...", ...), else empty.
  std::string oracle_verdict;
};

// Synthesizes a contract. Errors: no observation of the method, a
// signature that does not fit the observations.
absl::StatusOr<SynthesisResult> Synthesize(const SynthesisInput& input,
                                           const SynthesisOptions& options = {},
                                           ConsistencyOracle* oracle = nullptr);

// A guard for a postcondition someone else proposed (a model's candidate)
// that the validator refuted: the weakening search of the synthesizer's own
// refuted clauses (edge atoms such as `!Double.isNaN(x)` and
// `x != Integer.MIN_VALUE` first, then one atom of the vocabulary), over
// the recorded calls of `input.observations` (where P must keep holding)
// and `input.counterexamples` (where it is false).
struct ClauseGuard {
  std::string guard;    // in postcondition position: "!Double.isNaN(c)"
  std::string guarded;  // the weakened predicate, canonical: "!Double.isNaN(c) ==> \result == c + 1.0"
  // Read off single values (a threshold such as `x < 2145901565`): report
  // it as a hypothesis, never keep it as a clause.
  bool threshold = false;
};

// nullopt when no guard separates them, when a recorded call refutes P (then
// P is wrong, not too strong), when no counterexample refutes P or when P
// does not type-check. Errors as Synthesize's. Guards whose requires form is
// in `input.banned` are skipped (refuted earlier). nullopt too when the
// guard found makes the clause a tautology by `is_tautology` (G ==> P true
// whatever the values: P = `\result ==> G` is refuted where G is false,
// and G is true on every recorded call): then P is wrong.
absl::StatusOr<std::optional<ClauseGuard>> GuardRefutedClause(
    const SynthesisInput& input, const std::string& predicate,
    const SynthesisOptions& options = {}, const TautologyTest& is_tautology = nullptr);

// The result as the structured answer remote models give
// ({"contract": ..., "hypotheses": [...]}, tracespec.v1.ModelAnswer).
std::string AnswerJson(const SynthesisResult& result);

}  // namespace tracespec::synth

#endif  // TRACESPEC_AGENT_SYNTH_SYNTHESIZER_H_
