// Evidence for CTL verdicts: paths of the model that show why a formula holds
// or fails in a state, explained per sub-formula.
//   EX f holds, AX f fails        a step to a successor where f holds / fails
//   EF f holds, AG f fails        a shortest path to a state where f holds /
//                                 fails
//   E[f U g] holds                a shortest path through f-states to g
//   A[f U g] fails                a shortest path through !g-states to a state
//                                 with !f & !g, or a lasso staying in !g
//   EG f holds, AF f fails        a lasso (prefix, then a cycle repeated
//                                 forever) staying in f / !f
// Under fairness every path is a fair lasso: the cycle visits every fairness
// set; finite witnesses are continued by a fair lasso. The other verdicts
// (EF fails, AG holds, ...) are universal claims without a finite witness;
// their explanation says what was established. Every trace is checked to be
// a real path of the model before it is returned.
#ifndef TRACESPEC_VALIDATOR_CTL_EVIDENCE_H_
#define TRACESPEC_VALIDATOR_CTL_EVIDENCE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/ctl/checker.h"
#include "validator/ctl/formula.h"

namespace tracespec::ctl {

// A path of the model. When loop_start >= 0 the path is infinite: after the
// last state it continues with states[loop_start] and repeats
// states[loop_start..] forever (a lasso: prefix states[0..loop_start), cycle
// states[loop_start..]).
struct Trace {
  std::vector<uint32_t> states;
  int loop_start = -1;
  // states[0..claim_end] is the part that shows the claim (e.g. the path to
  // the goal of EF); what follows only continues it into a fair path.
  int claim_end = -1;

  bool empty() const { return states.empty(); }
  bool is_lasso() const { return loop_start >= 0; }
};

// Checks that consecutive states are transitions of `model` and that a lasso
// closes (last state -> states[loop_start]); InternalError otherwise.
absl::Status ValidateTrace(const Kripke& model, const Trace& trace);

struct Explanation {
  int node = 0;          // sub-formula (index into Formula::nodes)
  std::string formula;   // its text
  uint32_t state = 0;    // where it is evaluated
  bool holds = false;
  std::string reason;    // one sentence
  Trace trace;           // empty when the verdict has no path evidence
  std::vector<Explanation> children;  // sub-formulas along the trace
};

class Explainer {
 public:
  // `sat` are the labels Checker::Label computed for `formula`.
  Explainer(const Checker& checker, const Formula& formula, const std::vector<StateSet>& sat,
            int max_nodes = 200)
      : checker_(checker), formula_(formula), sat_(sat), budget_(max_nodes) {}

  // Why sub-formula `node` holds (or fails) in `state`, as labelled.
  absl::StatusOr<Explanation> Explain(int node, uint32_t state);

  // Path-finding building blocks, exposed for tests and benchmarks.
  // Shortest path from `from` to a state of `goal`, all states before the
  // last in `through` (any state when null). Empty when none.
  std::vector<uint32_t> ShortestPath(uint32_t from, const StateSet* through, const StateSet& goal) const;
  // A lasso from `from` inside `eg` (the set EG f for some f, fair version),
  // whose cycle lies in a fair SCC of `eg` and visits every fairness set.
  absl::StatusOr<Trace> Lasso(uint32_t from, const StateSet& eg) const;

 private:
  // Lasso without fairness constraints: no SCCs needed, any cycle inside eg.
  absl::StatusOr<Trace> UnfairLasso(uint32_t from, const StateSet& eg) const;

  absl::Status Explain(int node, uint32_t state, Explanation* out);
  // Appends a fair lasso from the last state when fairness is on.
  absl::Status ContinueFairly(Trace* trace) const;
  // Explains `node` at each distinct state of the trace (when it has a
  // temporal operator; propositional facts are visible in the labels).
  absl::Status ExplainAlong(int node, const std::vector<uint32_t>& states, Explanation* out);
  const StateSet& Aux(int node, int which);

  const Checker& checker_;
  const Formula& formula_;
  const std::vector<StateSet>& sat_;
  int budget_;
  std::map<std::pair<int, int>, StateSet> aux_;
};

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_EVIDENCE_H_
