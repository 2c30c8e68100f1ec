// report.html: one self-contained page, inline CSS, no script, no URL.
// Every text that comes from the run directory goes through HtmlEscape.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/report/escape.h"
#include "agent/report/report.h"
#include "agent/report/wording.h"

namespace tracespec::report {
namespace {

constexpr char kStyle[] = R"(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em;
       color: #1b1b1b; background: #fff; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-bottom: 0.3em; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.92em; }
pre { background: #f5f5f2; border: 1px solid #ddd; padding: 0.6em 0.8em; overflow-x: auto;
      white-space: pre-wrap; }
table { border-collapse: collapse; margin: 0.4em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #f0f0ec; }
.history { font-family: ui-monospace, monospace; font-weight: bold; }
.status-Success { color: #1a6b1a; } .status-Fail, .status-Error { color: #a01818; }
.status-Stopped, .status-Unknown { color: #8a5a00; } .weak { color: #8a5a00; font-weight: bold; }
.note { color: #555; }
.warning { color: #a01818; font-weight: bold; }
.excluded { color: #8a5a00; }
li { margin: 0.15em 0; }
)";

std::string E(const std::string& text) { return HtmlEscape(text); }

std::string Code(const std::string& text) { return absl::StrCat("<code>", E(text), "</code>"); }

void Paragraph(const std::string& text, std::string* out, const char* cls = nullptr) {
  absl::StrAppend(out, cls ? absl::StrCat("<p class=\"", cls, "\">") : "<p>", E(text), "</p>\n");
}

std::string MethodAnchor(size_t index) { return absl::StrCat("method-", index + 1); }

void Overview(const RunView& run, std::string* out) {
  absl::StrAppend(out, "<section id=\"methods\">\n<h2>Methods</h2>\n");
  Paragraph(MethodsSentence(run), out);
  if (!run.methods.empty()) {
    absl::StrAppend(out,
                    "<table>\n<tr><th>method</th><th>result</th><th>strength</th><th>history</th>"
                    "<th>rounds</th><th>contract file</th></tr>\n");
  }
  for (size_t i = 0; i < run.methods.size(); ++i) {
    const MethodView& m = run.methods[i];
    absl::StrAppend(out, "<tr><td><a href=\"#", MethodAnchor(i), "\">", E(m.display),
                    "</a></td><td class=\"status-", E(StatusName(m)), "\">", E(StatusName(m)),
                    E(StatusScope(m)), "</td><td", m.result.strength().weak() ? " class=\"weak\"" : "", ">",
                    E(StrengthCell(m)), "</td><td class=\"history\">", E(m.result.history()),
                    "</td><td>",
                    m.result.rounds(), "</td><td>", Code(ContractFileCell(m)), "</td></tr>\n");
  }
  if (!run.methods.empty()) absl::StrAppend(out, "</table>\n");
  if (!run.not_inferred.empty()) {
    absl::StrAppend(out, "<p>Targets without a contract:</p>\n<ul>\n");
    for (const v1::MethodRun& m : run.not_inferred) {
      absl::StrAppend(out, "<li>", Code(DisplayName(m)), ": ", E(NotInferredNote(m)), "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
  absl::StrAppend(out, "</section>\n");
}

// What makes the run untrustworthy or smaller than the previous one,
// before the methods, so that it is seen.
void Warnings(const RunView& run, std::string* out) {
  std::vector<RunWarning> warnings = RunWarnings(run);
  if (warnings.empty()) return;
  absl::StrAppend(out, "<section id=\"warnings\">\n<h2>Warnings</h2>\n");
  for (const RunWarning& w : warnings) {
    Paragraph(w.sentence, out, "warning");
    absl::StrAppend(out, "<ul>\n");
    for (const auto& [value, note] : w.items) {
      absl::StrAppend(out, "<li>", Code(value), note.empty() ? "" : absl::StrCat(": ", E(note)),
                      "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
  absl::StrAppend(out, "</section>\n");
}

void Project(const RunView& run, std::string* out) {
  if (!run.run) return;
  absl::StrAppend(out, "<section id=\"project\">\n<h2>Project</h2>\n");
  for (const std::string& line : ProjectLines(*run.run)) Paragraph(line, out);
  absl::StrAppend(out, "</section>\n");
}

void AuditTable(const std::vector<v1::AuditRecord>& records, std::string* out) {
  absl::StrAppend(out,
                  "<table>\n<tr><th>record</th><th>time</th><th>direction</th><th>verdict</th>"
                  "<th>destination</th><th>size</th><th>SHA-256</th><th>note</th></tr>\n");
  for (const v1::AuditRecord& r : records) {
    AuditRow row = AuditRowOf(r);
    absl::StrAppend(out, "<tr><td>", E(row.sequence), "</td><td>", E(row.time), "</td><td>",
                    E(row.direction), "</td><td>", E(row.verdict), "</td><td>",
                    Code(row.destination), "</td><td>", E(row.bytes), "</td><td>",
                    Code(row.sha256), "</td><td>", E(row.note), "</td></tr>\n");
  }
  absl::StrAppend(out, "</table>\n");
}

void Egress(const RunView& run, std::string* out) {
  absl::StrAppend(out, "<section id=\"egress\">\n<h2>What left the machine</h2>\n");
  for (const std::string& p : EgressParagraphs(run)) Paragraph(p, out);
  if (run.audit.present) {
    absl::StrAppend(out, "<p>Audit head: <code id=\"audit-head\">", E(run.audit.head_hash),
                    "</code></p>\n");
  }
  absl::StrAppend(out, "</section>\n");
}

void ObserveRun(const RunView& run, std::string* out) {
  if (!run.observe) return;
  const v1::ObserveSummary& s = *run.observe;
  absl::StrAppend(out, "<section id=\"observation-run\">\n<h2>Observation run</h2>\n");
  for (const std::string& line : ObserveLines(s)) Paragraph(line, out);
  absl::StrAppend(out, "<h3>Excluded tests</h3>\n");
  bool any = false;
  for (const v1::TestSummary& t : s.tests()) {
    if (!t.excluded()) continue;
    if (!any) absl::StrAppend(out, "<ul>\n");
    any = true;
    absl::StrAppend(out, "<li>", Code(t.test_id()), ": ", E(t.excluded_reason()), "</li>\n");
  }
  absl::StrAppend(out, any ? "</ul>\n"
                           : "<p>None: every test's observations may be sent to a model.</p>\n");
  Paragraph("Observations of excluded tests are used for local validation only and never sent "
            "anywhere.",
            out, "note");
  absl::StrAppend(out, "<h3>Withheld by the redaction policy</h3>\n");
  if (s.redactions().empty()) {
    absl::StrAppend(out, "<p>Nothing was redacted.</p>\n");
  } else {
    absl::StrAppend(out, "<ul>\n");
    for (const v1::RedactionCount& r : s.redactions()) {
      absl::StrAppend(out, "<li>", Code(r.what()), ": ", r.count(), " values redacted</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
    Paragraph("A redacted value was never read by the probe: it is in none of the files written.",
              out, "note");
  }
  if (!s.target_problems().empty()) {
    absl::StrAppend(out, "<h3>Targets that matched nothing</h3>\n<ul>\n");
    for (const v1::TargetProblem& p : s.target_problems()) {
      absl::StrAppend(out, "<li>", Code(p.target()), ": ", E(p.message()), "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
  absl::StrAppend(out, "</section>\n");
}

void Rounds(const MethodView& m, std::string* out) {
  absl::StrAppend(out, "<h3>Rounds</h3>\n");
  if (m.rounds.empty()) {
    absl::StrAppend(out, "<p>No round completed.</p>\n");
    return;
  }
  absl::StrAppend(out,
                  "<table>\n<tr><th>round</th><th>outcome</th><th>bits</th><th>consistency</th>"
                  "<th>coverage</th></tr>\n");
  for (const RoundView& r : m.rounds) {
    absl::StrAppend(out, "<tr><td>", r.round, "</td><td>", E(OutcomeName(r)),
                    "</td><td class=\"history\">", E(r.bits), "</td><td>", E(r.consistency),
                    "</td><td>", E(r.coverage), "</td></tr>\n");
  }
  absl::StrAppend(out, "</table>\n");
  for (const RoundView& r : m.rounds) {
    bool details = !r.error.empty() || !r.diagnostics.empty() || !r.repairs.empty() ||
                   !r.hypotheses.empty();
    if (!details) continue;
    absl::StrAppend(out, "<p>Round ", r.round, ":</p>\n<ul>\n");
    if (!r.error.empty()) absl::StrAppend(out, "<li>error: ", E(r.error), "</li>\n");
    for (const DiagnosticView& d : r.diagnostics) {
      absl::StrAppend(out, "<li>", E(DiagnosticLine(d)));
      if (!d.clause.empty()) absl::StrAppend(out, " — ", Code(d.clause));
      absl::StrAppend(out, "</li>\n");
    }
    for (const v1::InferRepair& repair : r.repairs) {
      absl::StrAppend(out, "<li>repaired ", Code(repair.clause()), " to ", Code(repair.repaired()),
                      ": ", E(repair.reason()), "</li>\n");
    }
    for (const std::string& h : r.hypotheses) {
      absl::StrAppend(out, "<li>hypothesis: ", E(h), "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
}

// The strength figures; nothing is rendered while there are none.
void Strength(const MethodView& m, std::string* out) {
  if (m.strength.empty()) return;
  absl::StrAppend(out, "<h3>Strength</h3>\n<ul>\n");
  for (const StrengthFigure& f : m.strength) {
    absl::StrAppend(out, "<li>", E(f.name), ": ", E(f.value), "</li>\n");
  }
  absl::StrAppend(out, "</ul>\n");
}

void Counterexamples(const MethodView& m, std::string* out) {
  absl::StrAppend(out, "<h3>Counterexamples</h3>\n");
  bool any = false;
  for (const RoundView& r : m.rounds) {
    for (const CounterexampleView& c : r.counterexamples) {
      if (!any) absl::StrAppend(out, "<ul>\n");
      any = true;
      absl::StrAppend(out, "<li>round ", r.round, ", ", E(c.check), ": ", E(c.explanation));
      if (!c.behaviour.empty()) absl::StrAppend(out, "<br>", Code(c.behaviour));
      if (!c.test_id.empty()) absl::StrAppend(out, " <span class=\"note\">(test ",
                                              E(c.test_id), ")</span>");
      if (c.excluded) {
        absl::StrAppend(out, " <span class=\"excluded\">from an excluded test</span>");
      }
      absl::StrAppend(out, "</li>\n");
    }
    for (const v1::InferRepair& repair : r.repairs) {
      if (repair.refuted_by() == 0) continue;
      if (!any) absl::StrAppend(out, "<ul>\n");
      any = true;
      absl::StrAppend(out, "<li>round ", r.round, ", consistency: ",
                      GuardedRefutation(repair, [](const std::string& t) { return Code(t); }),
                      "</li>\n");
    }
  }
  absl::StrAppend(out, any ? "</ul>\n" : "<p>None: no candidate was refuted.</p>\n");
}

void Observations(const MethodView& m, std::string* out) {
  absl::StrAppend(out, "<h3>Observations used</h3>\n");
  Paragraph(ObservationsSentence(m), out);
  if (!m.behaviours.empty()) {
    absl::StrAppend(out, "<ul>\n");
    for (const BehaviourView& b : m.behaviours) {
      absl::StrAppend(out, "<li", b.excluded ? " class=\"excluded\"" : "", ">", Code(b.behaviour));
      std::string note = BehaviourNote(b);
      if (!note.empty()) absl::StrAppend(out, " <span class=\"note\">(", E(note), ")</span>");
      absl::StrAppend(out, "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
  absl::StrAppend(out, "<h3>Excluded tests</h3>\n");
  if (m.excluded_tests.empty()) {
    absl::StrAppend(out, "<p>None of this method's observations come from an excluded test.</p>\n");
  } else {
    absl::StrAppend(out, "<ul>\n");
    for (const auto& [test, reason] : m.excluded_tests) {
      absl::StrAppend(out, "<li>", Code(test), ": ", E(reason), "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
  absl::StrAppend(out, "<h3>Redacted</h3>\n");
  if (m.redacted.empty()) {
    absl::StrAppend(out, "<p>No value in this method's observations was redacted.</p>\n");
  } else {
    absl::StrAppend(out, "<ul>\n");
    for (const auto& [what, count] : m.redacted) {
      absl::StrAppend(out, "<li>", Code(what), ": ", count, " values withheld</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
}

void Method(const RunView& run, const MethodView& m, size_t index, std::string* out) {
  std::string id = MethodAnchor(index);
  absl::StrAppend(out, "<section class=\"method\" id=\"", id, "\">\n<h2>", E(m.display), "</h2>\n");
  if (m.display != m.method) absl::StrAppend(out, "<p>JVM: ", Code(m.method), "</p>\n");
  absl::StrAppend(out, "<p><span class=\"status-", E(StatusName(m)), "\">", E(StatusName(m)),
                  "</span>", E(StatusScope(m)), ", history <span class=\"history\" id=\"history-", index + 1, "\">",
                  E(m.result.history()), "</span>, ", E(RoundsSentence(m)), "</p>\n");
  absl::StrAppend(out, "<h3>Contract</h3>\n");
  if (!m.contract_file.empty()) absl::StrAppend(out, "<p>File: ", Code(m.contract_file), "</p>\n");
  if (m.result.contract().empty()) {
    absl::StrAppend(out, "<p>No contract.</p>\n");
  } else {
    absl::StrAppend(out, "<pre class=\"contract\" id=\"contract-", index + 1, "\">",
                    E(m.result.contract()), "</pre>\n");
  }
  if (!m.result.weakened().empty() || !m.result.dropped().empty()) {
    absl::StrAppend(out, "<p>What the validator's refutations did to it:</p>\n<ul>\n");
    for (const std::string& note : m.result.weakened()) {
      absl::StrAppend(out, "<li>", E(note), "</li>\n");
    }
    for (const std::string& note : m.result.dropped()) {
      absl::StrAppend(out, "<li>", E(note), "</li>\n");
    }
    absl::StrAppend(out, "</ul>\n");
  }
  Strength(m, out);
  Rounds(m, out);
  Counterexamples(m, out);
  Observations(m, out);
  absl::StrAppend(out, "<h3>What left the machine</h3>\n");
  Paragraph(MethodEgressSentence(run, m), out);
  if (m.remote() && !m.audit.empty()) AuditTable(m.audit, out);
  absl::StrAppend(out, "</section>\n");
}

}  // namespace

std::string RenderHtml(const RunView& run) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>tracespec report</title>\n<style>";
  absl::StrAppend(&out, kStyle, "</style>\n</head>\n<body>\n<h1>tracespec report</h1>\n");
  Paragraph("Contracts inferred from the tests and the recorded executions, each checked "
            "against the bytecode (consistency, within the bounds its line states) and "
            "against every observation (coverage). History bits in the paper's notation: "
            "consistency then coverage per round, 1 for PASS.",
            &out, "note");
  Project(run, &out);
  Warnings(run, &out);
  Overview(run, &out);
  Egress(run, &out);
  ObserveRun(run, &out);
  for (size_t i = 0; i < run.methods.size(); ++i) Method(run, run.methods[i], i, &out);
  absl::StrAppend(&out, "</body>\n</html>\n");
  return out;
}

}  // namespace tracespec::report
