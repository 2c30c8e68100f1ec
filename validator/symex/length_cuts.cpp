// The input-length cuts of a bounded run; see length_cuts.h.
#include "validator/symex/length_cuts.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "validator/symex/solver.h"

namespace tracespec::symex {

std::vector<std::string> InputLengthCuts(const Machine& machine, const z3::expr& pre,
                                         int max_array,
                                         std::chrono::steady_clock::time_point deadline) {
  const JavaOps& ops = machine.ops();
  Machine::LengthBounds lengths = machine.LengthsBeyondBound();
  std::vector<z3::expr> unbounded = machine.AxiomsWithoutLengthBounds();
  std::vector<std::string> cuts;
  for (const auto& [beyond, what] :
       {std::make_pair(lengths.arrays, absl::StrCat("input arrays of at most ", max_array, " elements")),
        std::make_pair(lengths.strings,
                       absl::StrCat("input strings of at most ", max_array, " characters"))}) {
    if (JavaOps::IsFalse(beyond)) continue;
    SolveResult r = Solve(machine.ctx(), unbounded, ops.And(pre, beyond), deadline,
                          /*want_model=*/false);
    if (r.result == z3::unsat) continue;
    cuts.push_back(r.result == z3::unknown ? absl::StrCat(what, " (maybe)") : what);
  }
  return cuts;
}

}  // namespace tracespec::symex
