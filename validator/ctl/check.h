// Checking CTL formulas against a Kripke structure, with the semantics made
// explicit: a formula holds for the model iff it holds in every initial state;
// states unreachable from the initial states are reported (they never produce
// a counterexample); self-loops added for deadlocks and initial states
// without a fair path are listed. Renderers turn the report into text, one
// JSON document, or DOT (the evidence and its neighbourhood only).
#ifndef TRACESPEC_VALIDATOR_CTL_CHECK_H_
#define TRACESPEC_VALIDATOR_CTL_CHECK_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/ctl/evidence.h"
#include "validator/ctl/kripke.h"

namespace tracespec::ctl {

struct CheckOptions {
  // Fairness constraints: CTL formulas that must hold infinitely often on
  // every path the quantifiers consider.
  std::vector<std::string> fairness;
  // Compute witnesses and counterexamples.
  bool evidence = true;
  // Bound on explanation nodes per formula (nested explanations stop there).
  int max_explanation_nodes = 200;
  // Holding formulas are explained in at most this many initial states.
  int max_initial_explanations = 4;
};

struct FormulaResult {
  std::string text;       // as given
  std::string canonical;  // as parsed
  bool holds = false;
  std::vector<uint32_t> failing_initial_states;
  // Failing: why it fails in the first failing initial state. Holding: why it
  // holds, per initial state.
  std::vector<Explanation> evidence;
};

struct CheckReport {
  std::vector<uint32_t> initial_states;
  std::vector<uint32_t> unreachable;
  std::vector<uint32_t> self_loops_added;
  std::vector<std::string> fairness;
  std::vector<uint32_t> initial_without_fair_path;
  std::vector<FormulaResult> results;
  bool all_hold = true;
};

// Parses every formula and fairness constraint (errors name the column), then
// checks them.
absl::StatusOr<CheckReport> CheckFormulas(const Kripke& model, const std::vector<std::string>& formulas,
                                          const CheckOptions& options);

std::string RenderText(const Kripke& model, const CheckReport& report);
std::string RenderJson(const Kripke& model, const CheckReport& report);
std::string RenderDot(const Kripke& model, const CheckReport& report);

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_CHECK_H_
