// Clauses that say nothing about the method: a postcondition true whatever
// values its terms take (`\old(m) != 0 ==> \result ==> \old(m) != 0`, the
// shape a refuted implication takes when the guard that excludes its
// counterexamples is its own consequent) is left out of the contract, and
// so is each such conjunct of a conjunction. Whether a predicate is one is
// decided outside the synthesizer (the validator's check::IsTautology, on
// Z3, reaches it through ConsistencyOracle::IsTautology).
#ifndef TRACESPEC_AGENT_SYNTH_TAUTOLOGIES_H_
#define TRACESPEC_AGENT_SYNTH_TAUTOLOGIES_H_

#include <functional>
#include <optional>
#include <string>

#include "validator/jml/ast.h"

namespace tracespec::synth {

// Whether a type-checked predicate holds whatever values its terms take;
// false when unsure.
using TautologyTest = std::function<bool(const jml::Expr&)>;

// `predicate` without its conjuncts (the operands of its top-level `&&`)
// that are tautologies, printed; nullopt when every conjunct is one (the
// clause says nothing). Unchanged (printed) when none is.
std::optional<std::string> WithoutTautologies(const jml::Expr& predicate,
                                              const TautologyTest& is_tautology);

}  // namespace tracespec::synth

#endif  // TRACESPEC_AGENT_SYNTH_TAUTOLOGIES_H_
