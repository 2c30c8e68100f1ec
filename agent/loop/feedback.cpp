// Validator reports as feedback and as oracle verdicts; see feedback.h.
#include "agent/loop/feedback.h"

#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace tracespec::loop {
namespace {

std::string DiagnosticLine(absl::string_view check, const check::Diagnostic& d) {
  std::string where = d.span.valid() ? absl::StrCat(" at line ", d.span.line) : "";
  std::string clause = d.clause.empty() ? "" : absl::StrCat(": ", d.clause);
  return absl::StrCat(check, ": ", check::DiagnosticKindName(d.kind), where, clause, ": ",
                      d.message);
}

void AddCheck(absl::string_view name, const check::CheckResult& result,
              prompt::ValidationFeedback* out) {
  if (result.status != check::CheckStatus::kPass && result.status != check::CheckStatus::kSkipped &&
      !result.summary.empty()) {
    out->diagnostics.push_back(absl::StrCat(name, ": ", result.summary));
  }
  // Values of excluded observations stay local: their explanations, and
  // messages about them alone, are not fed back.
  auto excluded = [&](int i) {
    return i >= 0 && static_cast<size_t>(i) < result.counterexamples.size() &&
           result.counterexamples[i].excluded();
  };
  for (const check::Diagnostic& d : result.diagnostics) {
    bool only_excluded = !d.counterexamples.empty();
    for (int i : d.counterexamples) only_excluded = only_excluded && excluded(i);
    if (only_excluded) {
      check::Diagnostic shown = d;
      shown.message = "fails on an observation that may not be shown";
      out->diagnostics.push_back(DiagnosticLine(name, shown));
    } else {
      out->diagnostics.push_back(DiagnosticLine(name, d));
    }
  }
  for (size_t i = 0; i < result.counterexamples.size(); ++i) {
    if (i < result.explanations.size() && !result.explanations[i].empty() &&
        !excluded(static_cast<int>(i))) {
      out->diagnostics.push_back(
          absl::StrCat(name, " counterexample ", out->counterexamples.size() + 1, ": ",
                       result.explanations[i]));
    }
    out->counterexamples.push_back(result.counterexamples[i]);
  }
}

bool Blocks(check::Diagnostic::Kind kind) {
  return kind == check::Diagnostic::Kind::kSyntax || kind == check::Diagnostic::Kind::kType ||
         kind == check::Diagnostic::Kind::kUnsupported;
}

}  // namespace

prompt::ValidationFeedback FeedbackFromReport(const check::ValidationReport& report) {
  prompt::ValidationFeedback out;
  AddCheck("consistency", report.consistency, &out);
  AddCheck("coverage", report.coverage, &out);
  for (const check::Diagnostic& d : report.notes) {
    if (d.kind != check::Diagnostic::Kind::kNote) out.diagnostics.push_back(DiagnosticLine("contract", d));
  }
  return out;
}

namespace {

bool IsWordChar(char c) { return absl::ascii_isalnum(c) || c == '_' || c == '$'; }

// `text` with every whole-identifier occurrence of a name in `names` replaced.
std::string ReplaceNames(const std::string& text, const std::set<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (!IsWordChar(text[i])) {
      out += text[i++];
      continue;
    }
    size_t j = i;
    while (j < text.size() && IsWordChar(text[j])) ++j;
    std::string word = text.substr(i, j - i);
    out += names.count(word) > 0 ? "<withheld>" : word;
    i = j;
  }
  return out;
}

}  // namespace

void WithholdLikeRecorded(const std::vector<v1::Observation>& recorded,
                          prompt::ValidationFeedback* feedback) {
  std::set<std::pair<std::string, std::string>> redacted;
  std::set<std::string> names;
  for (const v1::Observation& o : recorded) {
    for (const auto* states : {&o.pre(), &o.post()}) {
      for (const v1::ObjectState& state : *states) {
        for (const v1::Field& f : state.fields()) {
          if (!f.value().has_redacted()) continue;
          redacted.insert({state.class_name(), f.name()});
          names.insert(f.name());
        }
      }
    }
  }
  if (redacted.empty()) return;
  for (v1::Observation& o : feedback->counterexamples) {
    for (auto* states : {o.mutable_pre(), o.mutable_post()}) {
      for (v1::ObjectState& state : *states) {
        for (v1::Field& f : *state.mutable_fields()) {
          if (redacted.count({state.class_name(), f.name()}) > 0) {
            f.mutable_value()->mutable_redacted();
          }
        }
      }
    }
  }
  for (std::string& line : feedback->diagnostics) line = ReplaceNames(line, names);
}

bool NotCheckable(const check::ValidationReport& report) {
  // ERROR, or UNKNOWN because the contract uses a construct the validator
  // does not handle (a diagnostic on a clause).
  bool error = false;
  for (const check::CheckResult* r : {&report.consistency, &report.coverage}) {
    error |= r->status == check::CheckStatus::kError;
    if (r->status != check::CheckStatus::kUnknown) continue;
    for (const check::Diagnostic& d : r->diagnostics) {
      error |= d.kind == check::Diagnostic::Kind::kUnsupported && d.span.valid();
    }
  }
  if (!error) return false;
  for (const check::CheckResult* r : {&report.consistency, &report.coverage}) {
    for (const check::Diagnostic& d : r->diagnostics) {
      if (Blocks(d.kind)) return true;
    }
  }
  for (const check::Diagnostic& d : report.notes) {
    if (Blocks(d.kind)) return true;
  }
  return false;
}

synth::OracleVerdict ValidatorOracle::Check(const std::string& contract) {
  ++calls_;
  check::ValidateRequest request = base_;
  request.contract = contract;
  request.has_observations = false;
  request.observations.clear();
  synth::OracleVerdict verdict;
  absl::StatusOr<check::ValidationReport> report = validator_->Validate(request);
  if (!report.ok()) {
    verdict.kind = synth::OracleVerdict::Kind::kUnknown;
    verdict.message = absl::StrCat("consistency: ", report.status().message());
    return verdict;
  }
  const check::CheckResult& c = report->consistency;
  verdict.message = absl::StrCat("consistency: ", c.summary);
  switch (c.status) {
    case check::CheckStatus::kPass: verdict.kind = synth::OracleVerdict::Kind::kPass; break;
    case check::CheckStatus::kFail: verdict.kind = synth::OracleVerdict::Kind::kFail; break;
    case check::CheckStatus::kError: verdict.kind = synth::OracleVerdict::Kind::kError; break;
    default: verdict.kind = synth::OracleVerdict::Kind::kUnknown; break;
  }
  // A construct the validator does not handle in the candidate: the
  // synthesizer treats it as an error of the candidate, as it treats ERROR.
  if (NotCheckable(*report)) verdict.kind = synth::OracleVerdict::Kind::kError;
  for (const check::Diagnostic& d : c.diagnostics) {
    if (d.span.valid() && d.kind != check::Diagnostic::Kind::kNote) {
      verdict.failing_clauses.push_back(d.span);
    }
  }
  verdict.counterexamples = c.counterexamples;
  return verdict;
}

}  // namespace tracespec::loop
