// The pre-check and repair layer between a model's answer and the
// validator: the candidate must parse (syntax errors go back to the model
// as such), and common well-definedness gaps get guards automatically —
// a postcondition that reads `\result[0]`, `\result.length` or `\result.f`
// is guarded with `\result != null && \result.length >= 1 ==> ...`, an
// element `a[k]` of an array with `a.length >= k + 1`, an element at a
// computed index `a[e]` with `0 <= e && e < a.length` — unless the clause
// already states the guard. Every repair is recorded.
//
// Only ensures and signals clauses are repaired (a guard on a requires
// clause would change what callers must establish). Indexes that mention a
// quantifier's variable are left to the quantifier's range.
#ifndef TRACESPEC_AGENT_LOOP_REPAIR_H_
#define TRACESPEC_AGENT_LOOP_REPAIR_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tracespec::loop {

struct Repair {
  std::string clause;    // as the model wrote it (canonical text)
  std::string repaired;  // as it is validated
  std::string reason;    // "\result[0] may be undefined: guarded with ..."
  // The validator's counterexamples that refuted the clause, when it was
  // guarded after the check; 0 for repairs made before checking.
  int refuted_by = 0;
};

struct PreparedCandidate {
  // Annotation lines: the model's text when nothing was repaired, else the
  // canonical text of the repaired specification.
  std::string jml;
  std::vector<Repair> repairs;
};

// Parses `jml` (annotation lines, as prompt::ParseAnswer gives them) and
// repairs it. A syntax error is an InvalidArgument status whose message
// reads "candidate.jml:line:column: ...".
absl::StatusOr<PreparedCandidate> PrepareCandidate(absl::string_view jml);

// The repairs as text, one paragraph each (for repairs.txt); "" for none.
std::string FormatRepairs(const std::vector<Repair>& repairs);

}  // namespace tracespec::loop

#endif  // TRACESPEC_AGENT_LOOP_REPAIR_H_
