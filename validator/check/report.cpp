// Validation reports as text and JSON; see validator.h.
#include <algorithm>
#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/proto_io.h"
#include "common/table.h"
#include "validator/check/validator.h"

namespace tracespec::check {
namespace {

std::string ValueText(const v1::Value& v) {
  switch (v.kind_case()) {
    case v1::Value::kBoolValue: return v.bool_value() ? "true" : "false";
    case v1::Value::kByteValue: return absl::StrCat(v.byte_value());
    case v1::Value::kShortValue: return absl::StrCat(v.short_value());
    case v1::Value::kCharValue: return absl::StrCat("(char) ", v.char_value());
    case v1::Value::kIntValue: return absl::StrCat(v.int_value());
    case v1::Value::kLongValue: return absl::StrCat(v.long_value(), "L");
    case v1::Value::kFloatValue: return absl::StrCat(v.float_value(), "f");
    case v1::Value::kDoubleValue: return absl::StrCat(v.double_value());
    case v1::Value::kStringValue: return absl::StrCat("\"", v.string_value(), "\"");
    case v1::Value::kNullValue: return "null";
    case v1::Value::kRef: return absl::StrCat("#", v.ref());
    case v1::Value::kRedacted: return "<redacted>";
    default: return "?";
  }
}

std::string ObjectText(const v1::ObjectState& o) {
  std::vector<std::string> parts;
  for (const v1::Field& f : o.fields()) parts.push_back(absl::StrCat(f.name(), " = ", ValueText(f.value())));
  if (o.has_array()) {
    for (const v1::Value& v : o.array().elements()) parts.push_back(ValueText(v));
    return absl::StrCat("#", o.id(), " ", o.class_name(), " length ", o.array().length(), " {",
                        absl::StrJoin(parts, ", "), "}");
  }
  if (!o.enum_constant().empty()) {  // name and ordinal are left out: the name says them
    return absl::StrCat("#", o.id(), " ", o.class_name(), ".", o.enum_constant(),
                        parts.empty() ? "" : absl::StrCat(" {", absl::StrJoin(parts, ", "), "}"));
  }
  return absl::StrCat("#", o.id(), " ", o.class_name(), " {", absl::StrJoin(parts, ", "), "}");
}

void AppendObservation(const v1::Observation& o, std::string* out) {
  std::vector<std::string> args;
  for (int i = 0; i < o.args_size(); ++i) {
    std::string name = i < o.method().param_names_size() ? o.method().param_names(i)
                                                         : absl::StrCat("arg", i);
    args.push_back(absl::StrCat(name, " = ", ValueText(o.args(i))));
  }
  if (o.has_receiver()) absl::StrAppend(out, "    this = ", ValueText(o.receiver()), "\n");
  absl::StrAppend(out, "    args: ", args.empty() ? "none" : absl::StrJoin(args, ", "), "\n");
  for (const v1::ObjectState& s : o.pre()) absl::StrAppend(out, "    pre:  ", ObjectText(s), "\n");
  for (const v1::ObjectState& s : o.post()) absl::StrAppend(out, "    post: ", ObjectText(s), "\n");
  const v1::Outcome& outcome = o.outcome();
  std::string result =
      outcome.has_thrown()          ? absl::StrCat("threw ", outcome.thrown().class_name())
      : outcome.has_returned()      ? absl::StrCat("returned ", ValueText(outcome.returned()))
      : outcome.has_returned_void() ? "returned (void)"
                                    : "none: the post-state is a state inside the method";
  absl::StrAppend(out, "    outcome: ", result, "\n");
}

}  // namespace

std::string FormatObservationText(const v1::Observation& observation) {
  std::string out;
  AppendObservation(observation, &out);
  return out;
}

namespace {

std::string Where(const Diagnostic& d) {
  return d.span.valid() ? absl::StrCat(d.span.ToString(), ": ") : "";
}

// Diagnostics, each followed by the counterexamples that show it.
void AppendCheck(const char* name, const CheckResult& r, std::string* out) {
  if (r.status == CheckStatus::kSkipped) return;
  std::vector<bool> shown(r.counterexamples.size(), false);
  // Under its diagnostic, an explanation need not repeat the clause and
  // the message.
  auto counterexample = [&](size_t i, const Diagnostic* d) {
    absl::string_view text;
    if (i < r.explanations.size()) text = r.explanations[i];
    if (d != nullptr && !d->clause.empty() && absl::ConsumePrefix(&text, d->clause)) {
      size_t colon = text.find("): ");
      if (absl::StartsWith(text, " (line ") && colon != absl::string_view::npos) {
        text.remove_prefix(colon + 3);
      }
    }
    if (d != nullptr && absl::ConsumePrefix(&text, d->message)) {
      if (!absl::ConsumePrefix(&text, "; ")) absl::ConsumePrefix(&text, ": ");
    }
    absl::StrAppend(out, "  counterexample ", i + 1, ": ", text, "\n");
    AppendObservation(r.counterexamples[i], out);
    shown[i] = true;
  };
  for (const Diagnostic& d : r.diagnostics) {
    absl::StrAppend(out, name, ": ", Where(d), DiagnosticKindName(d.kind), ": ",
                    d.clause.empty() ? "" : absl::StrCat(d.clause, " "), d.message, "\n");
    for (int i : d.counterexamples) {
      if (i >= 0 && static_cast<size_t>(i) < r.counterexamples.size()) counterexample(i, &d);
    }
  }
  for (size_t i = 0; i < r.counterexamples.size(); ++i) {
    if (!shown[i]) counterexample(i, nullptr);
  }
}

std::string DiagnosticJson(const Diagnostic& d) {
  std::vector<std::string> ids;
  for (int i : d.counterexamples) ids.push_back(absl::StrCat(i));
  return absl::StrCat("{\"kind\":", JsonQuote(DiagnosticKindName(d.kind)),
                      ",\"line\":", d.span.line, ",\"column\":", d.span.column,
                      ",\"clause\":", JsonQuote(d.clause), ",\"message\":", JsonQuote(d.message),
                      ",\"counterexamples\":[", absl::StrJoin(ids, ","), "]}");
}

std::string CheckJson(const CheckResult& r, bool coverage) {
  std::vector<std::string> cuts, diagnostics, counterexamples, explanations;
  for (const std::string& c : r.cuts) cuts.push_back(JsonQuote(c));
  for (const Diagnostic& d : r.diagnostics) diagnostics.push_back(DiagnosticJson(d));
  for (const v1::Observation& o : r.counterexamples) counterexamples.push_back(ToJsonLine(o));
  for (const std::string& e : r.explanations) explanations.push_back(JsonQuote(e));
  std::string out = absl::StrCat(
      "{\"status\":", JsonQuote(CheckStatusName(r.status)), ",\"summary\":", JsonQuote(r.summary),
      ",\"complete\":", r.complete ? "true" : "false",
      ",\"proved\":", r.proved ? "true" : "false", ",\"cuts\":[", absl::StrJoin(cuts, ","),
      "],\"diagnostics\":[", absl::StrJoin(diagnostics, ","), "],\"counterexamples\":[",
      absl::StrJoin(counterexamples, ","), "],\"explanations\":[", absl::StrJoin(explanations, ","),
      "],\"seconds\":", absl::StrFormat("%.3f", r.seconds));
  if (coverage) {
    absl::StrAppend(&out, ",\"admitted\":", r.admitted, ",\"total\":", r.total);
  } else {
    absl::StrAppend(&out, ",\"frame_seconds\":", absl::StrFormat("%.3f", r.frame_seconds));
  }
  return out + "}";
}

}  // namespace

std::string FormatReportText(const ValidationReport& report) {
  std::string out;
  auto line = [](const char* name, const CheckResult& r) {
    if (r.status == CheckStatus::kSkipped) {
      return absl::StrCat(name, ": SKIPPED (no observations given)\n");
    }
    return absl::StrCat(name, ": ", CheckStatusName(r.status),
                        r.summary.empty() ? "" : absl::StrCat(" (", r.summary, ")"), "\n");
  };
  absl::StrAppend(&out, line("consistency", report.consistency));
  absl::StrAppend(&out, line("coverage", report.coverage));
  absl::StrAppend(&out, "result: ", report.Bits(), "\n");
  absl::StrAppend(&out, "method: ", report.method, "\n");
  for (const Diagnostic& d : report.notes) {
    absl::StrAppend(&out, "note: ", Where(d), d.message, "\n");
  }
  AppendCheck("consistency", report.consistency, &out);
  // Coverage diagnostics may repeat for the same contract error as
  // consistency; print them once.
  bool same = report.coverage.status == report.consistency.status &&
              report.coverage.counterexamples.empty() &&
              report.coverage.diagnostics.size() == report.consistency.diagnostics.size() &&
              (report.coverage.status == CheckStatus::kError ||
               report.coverage.status == CheckStatus::kUnknown);
  if (!same) AppendCheck("coverage", report.coverage, &out);
  absl::StrAppend(&out, "time: ",
                  absl::StrFormat("%.3f", report.consistency.seconds + report.coverage.seconds),
                  " s\n");
  return out;
}

std::string FormatReportJson(const ValidationReport& report) {
  std::vector<std::string> notes;
  for (const Diagnostic& d : report.notes) notes.push_back(DiagnosticJson(d));
  return absl::StrCat("{\"method\":", JsonQuote(report.method), ",\"result\":",
                      JsonQuote(report.Bits()), ",\"consistency\":",
                      CheckJson(report.consistency, false), ",\"coverage\":",
                      CheckJson(report.coverage, true), ",\"notes\":[", absl::StrJoin(notes, ","),
                      "]}\n");
}

std::string FormatStrengthTable(
    const std::vector<std::pair<std::string, StrengthResult>>& rows) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"method", "observations", "pinned", "threw", "throw pinned", "undecided",
                   "perturbed", "rejected", "weak"});
  for (const auto& [method, s] : rows) {
    if (!s.measured) {
      cells.push_back({method, "-", "-", "-", "-", "-", "-", "-", "not measured"});
      continue;
    }
    cells.push_back({method, absl::StrCat(s.observations), absl::StrCat(s.returned_pinned()),
                     absl::StrCat(s.thrown), absl::StrCat(s.thrown_pinned),
                     absl::StrCat(s.undecided), absl::StrCat(s.perturbed),
                     absl::StrCat(s.rejected, " (", s.RejectedPercent(), "%)"),
                     s.Vacuous() ? "says nothing" : s.Weak() ? "weak" : "no"});
  }
  std::string out = AlignColumns(cells);
  for (const auto& [method, s] : rows) {
    absl::StrAppend(&out, method, ": ", s.Summary(), "\n");
    if (s.measured && !s.note.empty()) absl::StrAppend(&out, "  ", s.note, "\n");
  }
  return out;
}

}  // namespace tracespec::check
