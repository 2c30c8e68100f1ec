// Reading and writing Kripke structures.
//
// Text format (".kripke", and any extension not listed below), one
// declaration per line, `#` starts a comment:
//   states s0 s1 s2 s3 s4        # declares states (several lines allowed)
//   init s0                      # initial states (at least one overall)
//   init s0 [new Loan()]         # initial states with the action that
//                                # creates them (display only)
//   label g: s3                  # proposition g holds in s3 (`label p:` alone
//                                # declares p holding nowhere)
//   s2 -> s1 s3                  # transitions s2->s1 and s2->s3
//   s1 -> s2 [review]            # a transition with an action (display only)
// Names use letters, digits and _ . $ = + / , % @ - ("->" ends a name);
// other names are written in double quotes. Declarations may come in any
// order; every state used must be declared by a `states` line.
//
// JSON (".json"): {"states": [...], "init": [...] or "s0",
//   "labels": {"g": ["s3"]}, "transitions": [["s0","s1"], ["s2","s3","act"],
//   {"from": "s1", "to": "s2", "action": "review"}]}.
//
// Aldebaran (".aut", the labelled transition systems of CADP and mCRL2):
//   des (first, ntransitions, nstates) then (from, "action", to) per line.
// An LTS labels transitions, a Kripke structure labels states, so each LTS
// state N becomes the Kripke state `sN` and each transition (N, a, M) becomes
// an intermediate Kripke state named `sN.a.sM` in which the proposition `a`
// (the action text, quoted in formulas when needed) holds, with transitions
// sN -> sN.a.sM -> sM. So `EF "send(1)"` asks whether a send(1) can happen and
// `AG !crash` whether crash never happens; one LTS step is two Kripke steps.
// The first state is the only initial state.
#ifndef TRACESPEC_VALIDATOR_CTL_KRIPKE_IO_H_
#define TRACESPEC_VALIDATOR_CTL_KRIPKE_IO_H_

#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "validator/ctl/kripke.h"

namespace tracespec::ctl {

// Reads `path`; the format follows the extension (see above).
absl::StatusOr<Kripke> ReadKripkeFile(const std::string& path, DeadlockPolicy policy);

// Parsers over file contents; `source` names the file in messages, which read
// "source:line:column: ...".
absl::StatusOr<Kripke> ParseKripkeText(absl::string_view text, const std::string& source,
                                       DeadlockPolicy policy);
absl::StatusOr<Kripke> ParseKripkeJson(absl::string_view text, const std::string& source,
                                       DeadlockPolicy policy);
absl::StatusOr<Kripke> ParseAldebaran(absl::string_view text, const std::string& source,
                                      DeadlockPolicy policy);

// The text format of `model`, deterministic: states in index order, labels by
// name, transitions by source, then action, then target. `header` lines become comments.
// Self-loops added by the deadlock policy are not written (a comment lists
// those states), so the file says what was read.
std::string WriteKripkeText(const Kripke& model, const std::vector<std::string>& header = {});

// Which part of a model ToDot draws: only `states` (all when empty-sized),
// with the transitions between them; `highlight` edges (from, to, label) are
// drawn bold and labelled, e.g. the steps of a trace.
struct DotView {
  StateSet states;
  std::vector<std::tuple<uint32_t, uint32_t, std::string>> highlight;
  std::string title;
};

// Graphviz DOT: states with their propositions, initial states marked by an
// arrow from a point, self-loops added by the deadlock policy dashed.
std::string ToDot(const Kripke& model, const DotView& view = {});

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_KRIPKE_IO_H_
