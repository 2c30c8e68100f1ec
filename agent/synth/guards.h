// Internal to tracespec_synth: separating exceptional calls from the others
// (guards of exceptional_behavior cases) and naming what a call changed
// (assignable clauses).
#ifndef TRACESPEC_AGENT_SYNTH_GUARDS_H_
#define TRACESPEC_AGENT_SYNTH_GUARDS_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "agent/synth/context.h"
#include "agent/synth/vocabulary.h"

namespace tracespec::synth {

struct Guard {
  std::string pre;      // in requires: "amount <= 0", "a == null || a.length == 0"
  std::string neg_pre;  // its negation, for the normal case
  // Other guards that separate the same observations equally well (for
  // hypotheses: the evidence does not decide between them).
  std::vector<std::string> alternatives;
  // A threshold read off the observed values (x > 100): weaker evidence.
  bool threshold = false;
  // `pre` in postcondition position (fields as \old(f)).
  std::string post;
  // Two or three atoms (A || B, A && B && C).
  bool combined = false;
  // A conjunction of atoms (else one atom or a disjunction).
  bool conjunction = false;
  // The vocabulary atoms it is made of and their negations, canonical (in
  // requires form); empty for thresholds and char selectors.
  std::vector<std::string> atoms;
  std::vector<std::string> neg_atoms;
};

// A predicate over the pre-state true on every observation in `positives`
// and false on every one in `negatives`: one atom, else a disjunction or a
// conjunction of two, then of three, else a threshold on one input. Among atoms of one
// family (same terms) the one with the largest region wins (x <= 0 before
// x < 0 before x == 0); families in vocabulary order (parameters first).
// Guards whose requires clause is in `banned` are skipped.
// `max_combined`: the most atoms a combined guard joins (2 or 3). With
// `guard_atoms`, when no guard of `vocab.atoms` is found before the
// threshold, the search runs once more with Vocabulary::guard_atoms too
// (`off < 0 || len < 0 || off + len > n`).
std::optional<Guard> FindGuard(SynthContext* ctx, const Vocabulary& vocab,
                               const std::vector<size_t>& positives,
                               const std::vector<size_t>& negatives,
                               const std::set<std::string>& banned, size_t max_combined = 3,
                               bool guard_atoms = false);

// A guard for weakening a postcondition P that counterexamples refute:
// true on every call in `positives` (where P held) and false on every
// counterexample in `negatives`. Edge atoms (NaN, infinities, MIN_VALUE,
// overflow) are tried first, as they are where counterexamples sit, then
// FindGuard's search.
// Overflow edges are used only when `predicate` computes their arithmetic.
// With `edges_only`, only the edge atoms.
std::optional<Guard> FindWeakeningGuard(SynthContext* ctx, const Vocabulary& vocab,
                                        const std::string& predicate,
                                        const std::vector<size_t>& positives,
                                        const std::vector<size_t>& negatives,
                                        const std::set<std::string>& banned,
                                        bool edges_only = false);

// The locations the calls in `group` were seen to change, as assignable
// store references ("balance", "p.count", "a[*]"), sorted; empty for
// nothing. nullopt when a change happened in an object the contract cannot
// name (then the clause is left out: JML's default \everything).
std::optional<std::vector<std::string>> ChangedLocations(SynthContext* ctx,
                                                         const std::vector<size_t>& group);

}  // namespace tracespec::synth

#endif  // TRACESPEC_AGENT_SYNTH_GUARDS_H_
