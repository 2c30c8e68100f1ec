// Reachability closures over a Kripke structure's rows, tuned for graphs
// much larger than the cache. Internal to validator/ctl.
//
// A closure adds to a set every state (of an optional `through` set) that has
// a neighbour in the set, until nothing changes: backward closure = the
// states from which the set is reachable (EF, EU), forward closure = the
// states reachable from it. Two strategies, mixed:
//   push  a queue of states whose neighbours are still to be added; each
//         state costs a random access to its row (a cache miss per state
//         once the rows outgrow the cache);
//   pull  a sweep over the candidate states in index order, adding a
//         candidate when one of its neighbours in the opposite direction is
//         already in the set: the rows are read sequentially and only the
//         bitsets (one bit per state) are accessed at random. States added
//         earlier in the sweep count at once, so a sweep that runs against
//         the direction most edges take (decreasing indices for backward
//         closures of graphs numbered in search order) covers many levels.
// A sweep is tried each time the push work has doubled; sweeps continue
// while they pay for themselves (the rows of the states they add are at
// least 1/8 of the rows they read), and a sweep that does not pay is cut
// short after a quarter of the push work done so far; then pushing goes on.
// So the total work stays O(|S| + |R|): push reads each row once, paying
// sweeps read at most 8x the rows of the states they add, and the cut-short
// attempts together read at most half of what push read.
#ifndef TRACESPEC_VALIDATOR_CTL_CLOSURE_H_
#define TRACESPEC_VALIDATOR_CTL_CLOSURE_H_

#include "validator/ctl/kripke.h"
#include "validator/ctl/state_set.h"

namespace tracespec::ctl {

enum class Direction { kBackward, kForward };

// Closes `result` in `direction`, through states of `through` only (any
// state when null). Every state of `result` counts as a seed, except that
// when `start` is given only its states (a subset of `result`) still need
// their neighbours added: the other states of `result` are closed already.
void Close(const Kripke& model, Direction direction, const StateSet* through, StateSet* result,
           const StateSet* start = nullptr);

// The greatest-fixpoint counterpart: removes from `set` every state without
// a neighbour in `set` (a successor for kForward, a predecessor for
// kBackward) until every state left has one. With kForward the result is
// EG f for set = f (every state left starts an infinite path inside it).
// A first sweep, stopping at each state's first neighbour inside, checks
// whether any state has to go (often none does); if one does, neighbour
// counts from a sequential pass and a queue propagate the removals.
// O(|S| + |R|).
void Prune(const Kripke& model, Direction direction, StateSet* set);

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_CLOSURE_H_
