// Deciding the formulas the executor builds: the query together with the
// background axioms it depends on (axioms sharing no symbol with it are
// left out: they constrain other parts of the heap and are satisfiable on
// their own); pure bit-vector queries alternate between Z3's SMT core and
// eager bit-blasting in growing time slices; queries with constant arrays
// (default contents of new arrays) go to Z3's full array theory, which the
// solver for the QF_AUFBV logic lacks (it answers "incomplete (theory
// array)" at once). A query Z3 has not decided within a second (or gave up
// on) also goes to cvc5 when it is installed (TRACESPEC_SECOND_SOLVER=off
// turns that off). Both engines search in rounds of resource units; an
// unsat is taken at once, a model comes from the earliest round that found
// one (Z3's first within a round), so it does not depend on which engine is
// faster; cvc5's models are confirmed by Z3; both answers are logged under -v.
// Internal to validator/ (exposes Z3 types).
#ifndef TRACESPEC_VALIDATOR_SYMEX_SOLVER_H_
#define TRACESPEC_VALIDATOR_SYMEX_SOLVER_H_

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "z3++.h"

namespace tracespec::symex {

struct SolveResult {
  z3::check_result result = z3::unknown;
  // For sat with want_model: a model of the query and of every axiom (so the
  // whole heap can be read from it).
  std::optional<z3::model> model;
  // For unknown: why, in words ("Z3 gave up: incomplete (theory array) on a
  // query over arrays and quantifiers"; "time limit reached").
  std::string why_unknown;
};

SolveResult Solve(z3::context& ctx, const std::vector<z3::expr>& axioms, const z3::expr& query,
                  std::chrono::steady_clock::time_point deadline, bool want_model);

// cvc5 alone on `formulas` (as the portfolio asks it), its `sat` confirmed
// by Z3 with its values of the inputs: unknown when cvc5 is not installed,
// is off, cannot read the query, gives up, or Z3 does not confirm its model
// (why_unknown says which).
SolveResult AskSecondEngine(z3::context& ctx, const std::vector<z3::expr>& formulas,
                            std::chrono::steady_clock::time_point deadline, bool want_model);

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_SOLVER_H_
