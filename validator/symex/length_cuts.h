// Whether the bound L on input lengths (ExecOptions::max_array) cut
// executions that matter: the one decision `validate` (consistency) and
// `verify` (method mode) share before calling a result complete.
// Internal to validator/ (exposes Z3 types).
#ifndef TRACESPEC_VALIDATOR_SYMEX_LENGTH_CUTS_H_
#define TRACESPEC_VALIDATOR_SYMEX_LENGTH_CUTS_H_

#include <chrono>
#include <string>
#include <vector>

#include "validator/symex/machine.h"

namespace tracespec::symex {

// The cuts of the bound L = `max_array` on the lengths of input arrays and
// strings, in that order: "input arrays of at most L elements" when some
// pre-state admitted by `pre` has a longer input array whose length an
// execution read (Machine::LengthsBeyondBound, decided without the bound's
// axioms), likewise "input strings of at most L characters"; " (maybe)"
// appended when the solver did not decide the question by `deadline`.
// Empty: the bound cut nothing (no input length was read, or `pre` admits
// none longer).
std::vector<std::string> InputLengthCuts(const Machine& machine, const z3::expr& pre,
                                         int max_array,
                                         std::chrono::steady_clock::time_point deadline);

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_LENGTH_CUTS_H_
