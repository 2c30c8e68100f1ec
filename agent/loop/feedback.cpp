// Validator reports as feedback and as oracle verdicts; see feedback.h.
#include "agent/loop/feedback.h"

#include <cstring>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/distinctive.h"
#include "common/glob.h"

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

namespace {

// The Value a ConstantValue attribute holds, by field descriptor.
bool ConstantOf(const classfile::ClassFile& cls, const classfile::Field& field, v1::Value* out) {
  const classfile::CpEntry& e = cls.pool.at(field.constant_value_index);
  switch (e.tag) {
    case classfile::CpTag::kInteger: {
      auto v = static_cast<int32_t>(e.bits32);
      if (!DistinctiveNumber(v)) return false;
      out->set_int_value(v);
      return true;
    }
    case classfile::CpTag::kLong: {
      auto v = static_cast<int64_t>(e.bits64);
      if (!DistinctiveNumber(static_cast<double>(v))) return false;
      out->set_long_value(v);
      return true;
    }
    case classfile::CpTag::kFloat: {
      float v = 0;
      std::memcpy(&v, &e.bits32, sizeof v);
      if (!DistinctiveNumber(v)) return false;
      out->set_float_value(v);
      return true;
    }
    case classfile::CpTag::kDouble: {
      double v = 0;
      std::memcpy(&v, &e.bits64, sizeof v);
      if (!DistinctiveNumber(v)) return false;
      out->set_double_value(v);
      return true;
    }
    case classfile::CpTag::kString: {
      const std::string& text = cls.pool.StringValue(field.constant_value_index);
      if (text.empty()) return false;
      out->set_string_value(text);
      return true;
    }
    default: return false;
  }
}

// The number of a numeric Value, for comparison across kinds.
bool NumberOf(const v1::Value& v, double* out) {
  switch (v.kind_case()) {
    case v1::Value::kByteValue: *out = v.byte_value(); return true;
    case v1::Value::kShortValue: *out = v.short_value(); return true;
    case v1::Value::kCharValue: *out = v.char_value(); return true;
    case v1::Value::kIntValue: *out = v.int_value(); return true;
    case v1::Value::kLongValue: *out = static_cast<double>(v.long_value()); return true;
    case v1::Value::kFloatValue: *out = v.float_value(); return true;
    case v1::Value::kDoubleValue: *out = v.double_value(); return true;
    default: return false;
  }
}

bool Matches(const std::vector<v1::Value>& constants, const v1::Value& v) {
  double number = 0;
  bool is_number = NumberOf(v, &number);
  for (const v1::Value& c : constants) {
    double constant = 0;
    if (is_number && NumberOf(c, &constant) && constant == number) return true;
    if (v.has_string_value() && c.has_string_value() &&
        v.string_value().find(c.string_value()) != std::string::npos) {
      return true;
    }
  }
  return false;
}

int MaskValue(const std::vector<v1::Value>& constants, v1::Value* v) {
  if (!Matches(constants, *v)) return 0;
  v->mutable_redacted();
  return 1;
}

// The text of a numeric constant as the validator prints it.
std::string NumberText(const v1::Value& c) {
  switch (c.kind_case()) {
    case v1::Value::kIntValue: return absl::StrCat(c.int_value());
    case v1::Value::kLongValue: return absl::StrCat(c.long_value());
    case v1::Value::kFloatValue: return absl::StrCat(c.float_value());
    case v1::Value::kDoubleValue: return absl::StrCat(c.double_value());
    default: return "";
  }
}

// `line` with every whole number spelled `number` replaced.
int ReplaceNumber(const std::string& number, std::string* line) {
  int count = 0;
  std::string digits = number[0] == '-' ? number.substr(1) : number;
  size_t at = 0;
  while ((at = line->find(digits, at)) != std::string::npos) {
    size_t end = at + digits.size();
    bool joined_before = at > 0 && (absl::ascii_isalnum((*line)[at - 1]) || (*line)[at - 1] == '.');
    bool joined_after = end < line->size() && (absl::ascii_isalnum((*line)[end]) ||
                                               ((*line)[end] == '.' && end + 1 < line->size() &&
                                                absl::ascii_isdigit((*line)[end + 1])));
    if (joined_before || joined_after) {
      at = end;
      continue;
    }
    size_t start = at > 0 && (*line)[at - 1] == '-' ? at - 1 : at;
    line->replace(start, end - start, "<withheld>");
    at = start + 10;
    ++count;
  }
  return count;
}

}  // namespace

std::vector<v1::Value> DeniedConstants(classfile::ClassPath* class_path,
                                       const std::string& class_name,
                                       const v1::RedactionPolicy& policy) {
  std::vector<v1::Value> out;
  // The class, its superclasses and every interface any of them implements
  // (an interface's fields are constants its implementors' code inlines),
  // each once, in the order they are reached.
  std::vector<std::string> work = {class_name};
  std::set<std::string> seen;
  while (!work.empty()) {
    std::string name = work.front();
    work.erase(work.begin());
    if (name.empty() || !seen.insert(name).second) continue;
    absl::StatusOr<const classfile::ClassFile*> cls = class_path->Load(name);
    if (!cls.ok()) continue;
    work.push_back((*cls)->super_name);
    work.insert(work.end(), (*cls)->interfaces.begin(), (*cls)->interfaces.end());
    for (const classfile::Field& field : (*cls)->fields) {
      if (!field.is_final() || field.constant_value_index == 0) continue;
      bool denied = false;
      for (const std::string& pattern : policy.deny()) {
        denied = denied || GlobMatch(pattern, field.name, /*ignore_case=*/true);
      }
      v1::Value value;
      if (denied && ConstantOf(**cls, field, &value)) out.push_back(value);
    }
  }
  return out;
}

int MaskConstants(const std::vector<v1::Value>& constants, prompt::ValidationFeedback* feedback) {
  if (constants.empty()) return 0;
  int count = 0;
  for (v1::Observation& o : feedback->counterexamples) {
    if (o.has_receiver()) count += MaskValue(constants, o.mutable_receiver());
    for (v1::Value& arg : *o.mutable_args()) count += MaskValue(constants, &arg);
    for (auto* states : {o.mutable_pre(), o.mutable_post()}) {
      for (v1::ObjectState& state : *states) {
        for (v1::Field& f : *state.mutable_fields()) count += MaskValue(constants, f.mutable_value());
        for (v1::Value& e : *state.mutable_array()->mutable_elements()) {
          count += MaskValue(constants, &e);
        }
      }
    }
    if (o.outcome().has_returned()) {
      count += MaskValue(constants, o.mutable_outcome()->mutable_returned());
    }
  }
  for (std::string& line : feedback->diagnostics) {
    for (const v1::Value& c : constants) {
      if (c.has_string_value()) {
        count += static_cast<int>(absl::StrReplaceAll({{c.string_value(), "<withheld>"}}, &line));
      } else {
        count += ReplaceNumber(NumberText(c), &line);
      }
    }
  }
  return count;
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
