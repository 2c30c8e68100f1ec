// The sentences both renderings use, as plain unescaped text, so that
// report.html and report.md say the same thing. Internal to agent/report.
#ifndef TRACESPEC_AGENT_REPORT_WORDING_H_
#define TRACESPEC_AGENT_REPORT_WORDING_H_

#include <functional>
#include <string>
#include <vector>

#include "agent/report/run_view.h"

namespace tracespec::report {

// "Success", "Fail", ...
std::string StatusName(const MethodView& method);
// " (within bounds)" or " (proved by induction)" after a Success whose
// consistency PASS is not complete (loop::SuccessScope); "" otherwise.
std::string StatusScope(const MethodView& method);
// The overview's strength cell: the measured summary ("pins \result on 5/5
// observations, rejects 100% of perturbed outcomes", ending ", weak" when
// the contract pins fewer than half), "not measured" with the reason, or
// "-" when the method has no contract to measure.
std::string StrengthCell(const MethodView& method);
// The overview's contract column: the file holding the method's contract,
// or "none".
std::string ContractFileCell(const MethodView& method);

// "after 1 of at most 3 rounds; contracts from the built-in synthesizer" or
// "... from the model at URL".
std::string RoundsSentence(const MethodView& method);

// "validated", "not checkable", ... for a round.
std::string OutcomeName(const RoundView& round);

// A clause the validator refuted within a round and that was guarded there
// (InferRepair.refuted_by > 0): "`ensures P;` was refuted by 2
// counterexamples of the validator and guarded to `ensures G ==> P;` (the
// round's report is of the guarded candidate, so they are not listed)",
// the clauses rendered by `code` (which escapes them for its format).
std::string GuardedRefutation(const v1::InferRepair& repair,
                              const std::function<std::string(const std::string&)>& code);

// Counts per status over the run: "2 methods: 2 Success".
std::string MethodsSentence(const RunView& run);

// What left the machine, for the whole run: one paragraph per line.
std::vector<std::string> EgressParagraphs(const RunView& run);

// What left the machine for one method (the audit records are listed
// after this paragraph when there are any).
std::string MethodEgressSentence(const RunView& run, const MethodView& method);

// One audit record's fields as shown: "#3", "2026-...", "out", "ALLOWED",
// destination, "91 bytes", sha256, rule/detail.
struct AuditRow {
  std::string sequence, time, direction, verdict, destination, bytes, sha256, note;
};
AuditRow AuditRowOf(const v1::AuditRecord& record);

// The project of a `tracespec run` (run.json) in a few lines: directory and
// configuration, build command, model, reuse, a problem that stopped it.
std::vector<std::string> ProjectLines(const v1::RunSummary& run);

// The method of a run.json entry for people: its Java-style display, or
// the key when run.json predates it or the method never resolved.
std::string DisplayName(const v1::MethodRun& method);

// A target without an infer result: "not observed: no test called it" or
// "not started: <reason>".
std::string NotInferredNote(const v1::MethodRun& method);

// The run's warnings (run.json), each a heading sentence and its items,
// in run.json's order; empty when there is nothing to warn of (or no
// run.json). The tests that failed while observing ("shop.PriceTest#t:
// AssertionFailedError"), then the methods that had a contract in the
// previous run and have none in this one, each as its display name and
// this run's note on it.
struct RunWarning {
  std::string sentence;
  // (value shown as code, note; note may be empty)
  std::vector<std::pair<std::string, std::string>> items;
};
std::vector<RunWarning> RunWarnings(const RunView& run);

// The observation run in a few lines ("6 tests run: 6 passed, ...").
std::vector<std::string> ObserveLines(const v1::ObserveSummary& summary);

// "5 observations, 4 distinct behaviours; 1 from excluded tests (...)".
std::string ObservationsSentence(const MethodView& method);

// A diagnostic as one line: "consistency, violated, line 3:5: message".
std::string DiagnosticLine(const DiagnosticView& d);

// A merged behaviour's annotation: "x2; tests: A#b, A#c; excluded".
std::string BehaviourNote(const BehaviourView& b);

}  // namespace tracespec::report

#endif  // TRACESPEC_AGENT_REPORT_WORDING_H_
