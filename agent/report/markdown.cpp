// report.md: the same content as report.html in Markdown. Values from the
// run directory (names, paths, clauses, values) appear inside code spans
// and fenced blocks; the report's sentences, which carry such values, are
// prose with markup characters escaped (escape.h): neither can add HTML,
// links or code.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/report/escape.h"
#include "agent/report/report.h"
#include "agent/report/wording.h"

namespace tracespec::report {
namespace {

// A value: code.
std::string C(const std::string& text) { return MarkdownCode(text); }
// A sentence of ours, carrying untrusted parts (paths, URLs, reasons): prose.
std::string T(const std::string& text) { return MarkdownText(text); }

void Overview(const RunView& run, std::string* out) {
  // Numbers and status names only: plain text.
  absl::StrAppend(out, "## Methods\n\n", MethodsSentence(run), "\n\n");
  for (const MethodView& m : run.methods) {
    absl::StrAppend(out, "- ", C(m.display), ": **", StatusName(m), "**", StatusScope(m),
                    m.result.strength().vacuous() ? " (**says nothing about the outcome**)"
                    : m.result.strength().weak()  ? " (**weak**)"
                                                  : "",
                    ", strength ",
                    C(StrengthCell(m)), ", history ", C(m.result.history()), ", ",
                    m.result.rounds(),
                    m.result.rounds() == 1 ? " round" : " rounds", ", contract ",
                    C(ContractFileCell(m)), "\n");
  }
  if (!run.methods.empty()) absl::StrAppend(out, "\n");
  if (!run.not_inferred.empty()) {
    absl::StrAppend(out, "Targets without a contract:\n\n");
    for (const v1::MethodRun& m : run.not_inferred) {
      absl::StrAppend(out, "- ", C(DisplayName(m)), ": ", T(NotInferredNote(m)), "\n");
    }
    absl::StrAppend(out, "\n");
  }
}

// What makes the run untrustworthy or smaller than the previous one,
// before the methods, so that it is seen.
void Warnings(const RunView& run, std::string* out) {
  std::vector<RunWarning> warnings = RunWarnings(run);
  if (warnings.empty()) return;
  absl::StrAppend(out, "## Warnings\n\n");
  for (const RunWarning& w : warnings) {
    absl::StrAppend(out, "**", T(w.sentence), "**\n\n");
    for (const auto& [value, note] : w.items) {
      absl::StrAppend(out, "- ", C(value), note.empty() ? "" : absl::StrCat(": ", T(note)), "\n");
    }
    absl::StrAppend(out, "\n");
  }
}

void Project(const RunView& run, std::string* out) {
  if (!run.run) return;
  absl::StrAppend(out, "## Project\n\n");
  for (const std::string& line : ProjectLines(*run.run)) absl::StrAppend(out, T(line), "\n\n");
}

void AuditList(const std::vector<v1::AuditRecord>& records, std::string* out) {
  for (const v1::AuditRecord& r : records) {
    AuditRow row = AuditRowOf(r);
    absl::StrAppend(out, "- ", row.sequence, " ", C(row.time), " ", row.direction, " ",
                    C(row.verdict), " ", C(row.destination), ", ", row.bytes, ", SHA-256 ",
                    C(row.sha256));
    if (!row.note.empty()) absl::StrAppend(out, ": ", C(row.note));
    absl::StrAppend(out, "\n");
  }
  absl::StrAppend(out, "\n");
}

void Egress(const RunView& run, std::string* out) {
  absl::StrAppend(out, "## What left the machine\n\n");
  for (const std::string& p : EgressParagraphs(run)) absl::StrAppend(out, T(p), "\n\n");
  if (run.audit.present) absl::StrAppend(out, "Audit head: ", C(run.audit.head_hash), "\n\n");
}

void ObserveRun(const RunView& run, std::string* out) {
  if (!run.observe) return;
  const v1::ObserveSummary& s = *run.observe;
  absl::StrAppend(out, "## Observation run\n\n");
  for (const std::string& line : ObserveLines(s)) absl::StrAppend(out, T(line), "\n\n");
  absl::StrAppend(out, "### Excluded tests\n\n");
  bool any = false;
  for (const v1::TestSummary& t : s.tests()) {
    if (!t.excluded()) continue;
    any = true;
    absl::StrAppend(out, "- ", C(t.test_id()), ": ", T(t.excluded_reason()), "\n");
  }
  absl::StrAppend(out, any ? "\n" : "None: every test's observations may be sent to a model.\n\n");
  absl::StrAppend(out,
                  "Observations of excluded tests are used for local validation only and never "
                  "sent anywhere.\n\n### Withheld by the redaction policy\n\n");
  if (s.redactions().empty()) {
    absl::StrAppend(out, "Nothing was redacted.\n\n");
  } else {
    for (const v1::RedactionCount& r : s.redactions()) {
      absl::StrAppend(out, "- ", C(r.what()), ": ", r.count(), " values redacted\n");
    }
    absl::StrAppend(out,
                    "\nA redacted value was never read by the probe: it is in none of the files "
                    "written.\n\n");
  }
  if (!s.target_problems().empty()) {
    absl::StrAppend(out, "### Targets that matched nothing\n\n");
    for (const v1::TargetProblem& p : s.target_problems()) {
      absl::StrAppend(out, "- ", C(p.target()), ": ", T(p.message()), "\n");
    }
    absl::StrAppend(out, "\n");
  }
}

void Rounds(const MethodView& m, std::string* out) {
  absl::StrAppend(out, "#### Rounds\n\n");
  if (m.rounds.empty()) {
    absl::StrAppend(out, "No round completed.\n\n");
    return;
  }
  for (const RoundView& r : m.rounds) {
    absl::StrAppend(out, "- round ", r.round, ": ", C(OutcomeName(r)), ", bits ", C(r.bits),
                    "; consistency ", C(r.consistency), "; coverage ", C(r.coverage), "\n");
    if (!r.error.empty()) absl::StrAppend(out, "  - error: ", C(r.error), "\n");
    for (const DiagnosticView& d : r.diagnostics) {
      absl::StrAppend(out, "  - ", C(DiagnosticLine(d)));
      if (!d.clause.empty()) absl::StrAppend(out, " in ", C(d.clause));
      absl::StrAppend(out, "\n");
    }
    for (const v1::InferRepair& repair : r.repairs) {
      absl::StrAppend(out, "  - repaired ", C(repair.clause()), " to ", C(repair.repaired()), ": ",
                      C(repair.reason()), "\n");
    }
    for (const std::string& h : r.hypotheses) {
      absl::StrAppend(out, "  - hypothesis: ", C(h), "\n");
    }
  }
  absl::StrAppend(out, "\n");
}

// The strength figures; nothing is rendered while there are none.
void Strength(const MethodView& m, std::string* out) {
  if (m.strength.empty()) return;
  absl::StrAppend(out, "#### Strength\n\n");
  for (const StrengthFigure& f : m.strength) {
    absl::StrAppend(out, "- ", C(f.name), ": ", C(f.value), "\n");
  }
  absl::StrAppend(out, "\n");
}

void Counterexamples(const MethodView& m, std::string* out) {
  absl::StrAppend(out, "#### Counterexamples\n\n");
  bool any = false;
  for (const RoundView& r : m.rounds) {
    for (const CounterexampleView& c : r.counterexamples) {
      any = true;
      absl::StrAppend(out, "- round ", r.round, ", ", c.check, ": ", C(c.explanation), "\n");
      if (!c.behaviour.empty()) absl::StrAppend(out, "  - ", C(c.behaviour), "\n");
      if (!c.test_id.empty()) absl::StrAppend(out, "  - test ", C(c.test_id), "\n");
      if (c.excluded) absl::StrAppend(out, "  - from an excluded test\n");
    }
    for (const v1::InferRepair& repair : r.repairs) {
      if (repair.refuted_by() == 0) continue;
      any = true;
      absl::StrAppend(out, "- round ", r.round, ", consistency: ", GuardedRefutation(repair, C),
                      "\n");
    }
  }
  absl::StrAppend(out, any ? "\n" : "None: no candidate was refuted.\n\n");
}

void Observations(const MethodView& m, std::string* out) {
  absl::StrAppend(out, "#### Observations used\n\n", ObservationsSentence(m), "\n\n");
  for (const BehaviourView& b : m.behaviours) {
    absl::StrAppend(out, "- ", C(b.behaviour));
    std::string note = BehaviourNote(b);
    if (!note.empty()) absl::StrAppend(out, " (", C(note), ")");
    absl::StrAppend(out, "\n");
  }
  if (!m.behaviours.empty()) absl::StrAppend(out, "\n");
  absl::StrAppend(out, "#### Excluded tests\n\n");
  if (m.excluded_tests.empty()) {
    absl::StrAppend(out, "None of this method's observations come from an excluded test.\n\n");
  } else {
    for (const auto& [test, reason] : m.excluded_tests) {
      absl::StrAppend(out, "- ", C(test), ": ", T(reason), "\n");
    }
    absl::StrAppend(out, "\n");
  }
  absl::StrAppend(out, "#### Redacted\n\n");
  if (m.redacted.empty()) {
    absl::StrAppend(out, "No value in this method's observations was redacted.\n\n");
  } else {
    for (const auto& [what, count] : m.redacted) {
      absl::StrAppend(out, "- ", C(what), ": ", count, " values withheld\n");
    }
    absl::StrAppend(out, "\n");
  }
}

void Method(const RunView& run, const MethodView& m, std::string* out) {
  absl::StrAppend(out, "### ", C(m.display), "\n\n");
  if (m.display != m.method) absl::StrAppend(out, "JVM: ", C(m.method), "\n\n");
  absl::StrAppend(out, "**", StatusName(m), "**", StatusScope(m), ", history ",
                  C(m.result.history()), ", ", T(RoundsSentence(m)), "\n\n#### Contract\n\n");
  if (!m.contract_file.empty()) absl::StrAppend(out, "File: ", C(m.contract_file), "\n\n");
  if (m.result.contract().empty()) {
    absl::StrAppend(out, "No contract.\n\n");
  } else {
    absl::StrAppend(out, MarkdownBlock(m.result.contract(), "java"), "\n");
  }
  if (!m.result.weakened().empty() || !m.result.dropped().empty()) {
    absl::StrAppend(out, "What the validator's refutations did to it:\n\n");
    for (const std::string& note : m.result.weakened()) absl::StrAppend(out, "- ", C(note), "\n");
    for (const std::string& note : m.result.dropped()) absl::StrAppend(out, "- ", C(note), "\n");
    absl::StrAppend(out, "\n");
  }
  Strength(m, out);
  Rounds(m, out);
  Counterexamples(m, out);
  Observations(m, out);
  absl::StrAppend(out, "#### What left the machine\n\n", T(MethodEgressSentence(run, m)), "\n\n");
  if (m.remote() && !m.audit.empty()) AuditList(m.audit, out);
}

}  // namespace

std::string RenderMarkdown(const RunView& run) {
  std::string out =
      "# tracespec report\n\n"
      "Contracts inferred from the tests and the recorded executions, each checked against "
      "the bytecode (consistency, within the bounds its line states) and against every "
      "observation (coverage). History bits in the paper's notation: consistency then "
      "coverage per round, 1 for PASS.\n\n";
  Project(run, &out);
  Warnings(run, &out);
  Overview(run, &out);
  Egress(run, &out);
  ObserveRun(run, &out);
  if (!run.methods.empty()) absl::StrAppend(&out, "## Per method\n\n");
  for (const MethodView& m : run.methods) Method(run, m, &out);
  return out;
}

}  // namespace tracespec::report
