// The CTL model checker: Clarke-Emerson-Sistla bottom-up labelling, with
// fairness constraints (CTL_F). Each sub-formula gets the set of states where
// it holds, in O(|S| + |R|) per operator:
//   EX f      backward marking from the (fair) f-states
//   E[f U g]  backward closure from the (fair) g-states through f-states
//             (closure.h: sequential pull sweeps where they pay, a
//             prefetched push queue elsewhere)
//   EG f      with fairness: strongly connected components of the
//             f-restricted graph (forward-backward rounds with closures for
//             the large components, trimming, then an iterative Tarjan for the
//             rest: no recursion), keeping the non-trivial SCCs that meet
//             every fairness set, then backward closure within f. Without
//             fairness every non-trivial SCC is fair and the same set is the
//             greatest fixpoint of "f-states with a successor in the set"
//             (closure.h Prune: a sweep that stops at each state's first
//             successor inside, then successor counters and a removal queue
//             if anything has to go), several times faster on large graphs
//             than Tarjan's random-access depth-first search.
//   AX, AF, AG, A[U] by duality:  AX f = !EX !f,  AF f = !EG !f,
//             AG f = !E[true U !f],  A[f U g] = !(E[!g U !f & !g] | EG !g)
// With fairness constraints F1..Fk (CTL formulas, evaluated without
// fairness), path quantifiers range over fair paths only: paths on which
// every Fi holds infinitely often. A state is fair when a fair path starts
// there (fair = EG true under fairness); EX and EU look for fair successors
// and fair goal states. Propositions are evaluated as labelled, fair or not.
#ifndef TRACESPEC_VALIDATOR_CTL_CHECKER_H_
#define TRACESPEC_VALIDATOR_CTL_CHECKER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/ctl/formula.h"
#include "validator/ctl/kripke.h"
#include "validator/ctl/state_set.h"

namespace tracespec::ctl {

// Strongly connected components of the sub-graph induced by `within`.
struct SccResult {
  // Component id per state (only meaningful inside `within`).
  std::vector<uint32_t> component;
  // Per component: whether it contains a cycle (more than one state, or a
  // self-loop) and meets every fairness set.
  std::vector<bool> fair;
};

// Forward-backward rounds (the component of a well-connected pivot state)
// while they pay, trimming of states without a successor or predecessor
// left, then an iterative Tarjan over the rest of `within`. When `component`
// is null only the states of fair components are returned (in
// `fair_states`), which is what EG needs; otherwise component ids are filled
// in as well.
void ComputeFairSccs(const Kripke& model, const StateSet& within,
                     const std::vector<StateSet>& fairness, StateSet* fair_states,
                     SccResult* component);

class Checker {
 public:
  // `fairness` formulas must only use propositions of `model`.
  static absl::StatusOr<std::unique_ptr<Checker>> Create(const Kripke& model,
                                                         const std::vector<Formula>& fairness);

  // Checks that every proposition of `formula` exists in the model; the
  // error names the column.
  absl::Status Bind(const Formula& formula) const;

  // The set of states satisfying each node of `formula` (index = node).
  absl::StatusOr<std::vector<StateSet>> Label(const Formula& formula) const;

  const Kripke& model() const { return model_; }
  bool has_fairness() const { return !fairness_.empty(); }
  // The fairness sets F1..Fk (empty without fairness).
  const std::vector<StateSet>& fairness_sets() const { return fairness_; }
  // States where a fair path starts (every state without fairness).
  const StateSet& fair_states() const { return fair_; }

  // The operators on state sets (fair versions when fairness is on).
  StateSet Ex(const StateSet& f) const;
  StateSet Eu(const StateSet& f, const StateSet& g) const;
  StateSet Eg(const StateSet& f) const;
  StateSet Ax(const StateSet& f) const;
  StateSet Af(const StateSet& f) const;
  StateSet Ag(const StateSet& f) const;
  StateSet Au(const StateSet& f, const StateSet& g) const;
  StateSet Ef(const StateSet& f) const;

 private:
  explicit Checker(const Kripke& model) : model_(model) {}
  StateSet Eval(const Formula& formula, int node, const std::vector<StateSet>& sat) const;

  const Kripke& model_;
  std::vector<StateSet> fairness_;
  StateSet fair_;
};

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_CHECKER_H_
