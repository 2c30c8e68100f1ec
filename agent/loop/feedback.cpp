// Validator reports as feedback and as oracle verdicts; see feedback.h.
#include "agent/loop/feedback.h"

#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "agent/loop/withheld_verdicts.h"
#include "common/distinctive.h"
#include "common/files.h"
#include "common/glob.h"
#include "common/status.h"
#include "common/subprocess.h"
#include "google/protobuf/util/message_differencer.h"
#include "observer/probe/substitute_value.h"
#include "validator/check/tautology.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/instructions.h"

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
// The constant at pool `index` of `cls` as a value, when it is one a
// counterexample could show: a string, or a distinctive number.
bool PoolConstant(const classfile::ClassFile& cls, size_t index, v1::Value* out) {
  const classfile::CpEntry& e = cls.pool.at(index);
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
      const std::string& text = cls.pool.StringValue(index);
      if (text.empty()) return false;
      out->set_string_value(text);
      return true;
    }
    default: return false;
  }
}

bool ConstantOf(const classfile::ClassFile& cls, const classfile::Field& field, v1::Value* out) {
  return PoolConstant(cls, field.constant_value_index, out);
}

// The strings and distinctive numbers javac compiled into `cls`: those of
// its constant pool, and the operands of `sipush` in its code (an int up
// to 32767 is put into the instruction itself, not the pool; `bipush`'s
// never pass DistinctiveNumber).
std::vector<v1::Value> CompiledConstants(const classfile::ClassFile& cls) {
  std::vector<v1::Value> out;
  for (size_t i = 1; i < cls.pool.size(); ++i) {
    v1::Value v;
    if (PoolConstant(cls, i, &v)) out.push_back(v);
  }
  for (const classfile::Method& m : cls.methods) {
    if (!m.code.has_value()) continue;
    for (const classfile::Instruction& in : m.code->instructions) {
      if (in.opcode != classfile::kSipush || !DistinctiveNumber(in.operand)) continue;
      v1::Value v;
      v.set_int_value(in.operand);
      out.push_back(v);
    }
  }
  return out;
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
    // A Java literal's type suffix is part of the number (the validator
    // prints a long as `4999999017L`).
    if (end < line->size() && absl::StrContains("LlFfDd", (*line)[end]) &&
        (end + 1 == line->size() || !absl::ascii_isalnum((*line)[end + 1]))) {
      ++end;
    }
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

namespace {

// Calls `visit` with every compile-time constant field (final, with a
// ConstantValue) whose name a deny pattern of `policy` matches, of
// `class_name`, its superclasses and every interface any of them
// implements (an interface's fields are constants its implementors' code
// inlines), each class once, in the order they are reached.
void ForEachDeniedConstant(
    classfile::ClassPath* class_path, const std::string& class_name,
    const v1::RedactionPolicy& policy,
    const std::function<void(const classfile::ClassFile&, const classfile::Field&)>& visit) {
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
      if (denied) visit(**cls, field);
    }
  }
}

// A literal of the field's type other than its value: what the field's
// initializer becomes in the second compilation.
std::string SubstituteLiteral(const classfile::ClassFile& cls, const classfile::Field& field) {
  const classfile::CpEntry& e = cls.pool.at(field.constant_value_index);
  const std::string& d = field.descriptor;
  if (d == "Ljava/lang/String;") {
    std::string text = cls.pool.StringValue(field.constant_value_index);
    bool all_q = !text.empty() && text.find_first_not_of('q') == std::string::npos;
    return absl::StrCat("\"", std::string(std::max<size_t>(text.size(), 1), all_q ? 'z' : 'q'),
                        "\"");
  }
  auto other = [](int64_t v) { return v == 7919 ? int64_t{7907} : int64_t{7919}; };
  if (d == "J") return absl::StrCat(other(static_cast<int64_t>(e.bits64)), "L");
  if (d == "F" || d == "D") {
    double v = 0;
    if (d == "F") {
      float f = 0;
      std::memcpy(&f, &e.bits32, sizeof f);
      v = f;
    } else {
      std::memcpy(&v, &e.bits64, sizeof v);
    }
    return absl::StrCat(v == 79.19 ? "79.07" : "79.19", d == "F" ? "f" : "");
  }
  std::string number = absl::StrCat(other(static_cast<int32_t>(e.bits32)));
  if (d == "B") return static_cast<int8_t>(e.bits32) == 19 ? "(byte) 7" : "(byte) 19";
  if (d == "S") return absl::StrCat("(short) ", number);
  if (d == "C") return absl::StrCat("(char) ", number);
  if (d == "Z") return e.bits32 != 0 ? "false" : "true";
  return number;
}

// `text` with the initializer of every field named in `names` (`NAME =
// ...;`, not `==`) replaced by its substitute.
void SubstituteInitializers(const std::map<std::string, std::string>& names, std::string* text) {
  for (const auto& [name, literal] : names) {
    size_t at = 0;
    while ((at = text->find(name, at)) != std::string::npos) {
      size_t end = at + name.size();
      bool whole = (at == 0 || !(absl::ascii_isalnum((*text)[at - 1]) || (*text)[at - 1] == '_' ||
                                  (*text)[at - 1] == '$')) &&
                   (end >= text->size() ||
                    !(absl::ascii_isalnum((*text)[end]) || (*text)[end] == '_' || (*text)[end] == '$'));
      size_t eq = end;
      while (eq < text->size() && absl::ascii_isspace((*text)[eq])) ++eq;
      if (!whole || eq >= text->size() || (*text)[eq] != '=' ||
          (eq + 1 < text->size() && (*text)[eq + 1] == '=')) {
        at = end;
        continue;
      }
      // The initializer ends at the first ';' outside a literal.
      size_t stop = eq + 1;
      char quote = 0;
      for (; stop < text->size(); ++stop) {
        char c = (*text)[stop];
        if (quote != 0) {
          if (c == '\\') ++stop;
          else if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == ';') {
          break;
        }
      }
      if (stop >= text->size()) break;
      std::string replacement = absl::StrCat(" ", literal);
      text->replace(eq + 1, stop - eq - 1, replacement);
      at = eq + 1 + replacement.size();
    }
  }
}

// The source file of class `internal_name` ("pkg/Outer$Inner" is in
// pkg/Outer.java) under one of `sources` (directories of packages, or
// .java files), with its path relative to its package root; "" when none.
std::pair<std::string, std::string> SourceOf(const std::string& internal_name,
                                             const std::vector<std::string>& sources) {
  std::string top = internal_name.substr(0, internal_name.find('$'));
  std::string relative = absl::StrCat(top, ".java");
  size_t slash = relative.rfind('/');
  std::string base = slash == std::string::npos ? relative : relative.substr(slash + 1);
  for (const std::string& root : sources) {
    if (IsDirectory(root)) {
      std::string path = absl::StrCat(root, "/", relative);
      if (FileExists(path)) return {path, relative};
    } else if (root == base || absl::EndsWith(root, absl::StrCat("/", base))) {
      return {root, relative};
    }
  }
  return {"", ""};
}

}  // namespace

std::vector<v1::Value> DeniedConstants(classfile::ClassPath* class_path,
                                       const std::string& class_name,
                                       const v1::RedactionPolicy& policy) {
  std::vector<v1::Value> out;
  ForEachDeniedConstant(class_path, class_name, policy,
                        [&](const classfile::ClassFile& cls, const classfile::Field& field) {
                          v1::Value value;
                          if (ConstantOf(cls, field, &value)) out.push_back(value);
                        });
  return out;
}

absl::StatusOr<std::vector<v1::Value>> DerivedConstants(classfile::ClassPath* class_path,
                                                        const std::string& classpath,
                                                        const std::string& class_name,
                                                        const v1::RedactionPolicy& policy,
                                                        const std::vector<std::string>& sources) {
  // The substitutes, per class declaring a denied constant.
  std::map<std::string, std::map<std::string, std::string>> substitutes;
  ForEachDeniedConstant(class_path, class_name, policy,
                        [&](const classfile::ClassFile& cls, const classfile::Field& field) {
                          substitutes[cls.name][field.name] = SubstituteLiteral(cls, field);
                        });
  if (substitutes.empty()) return std::vector<v1::Value>{};
  absl::StatusOr<const classfile::ClassFile*> original = class_path->Load(class_name);
  if (!original.ok()) return original.status();
  const std::string target = (*original)->name;
  // The files to compile again: the target's and those declaring the
  // constants (one file may hold several of the classes).
  std::map<std::string, std::map<std::string, std::string>> files;  // relative path -> names
  std::map<std::string, std::string> paths;                         // relative path -> file
  std::set<std::string> classes = {target};
  for (const auto& [cls, names] : substitutes) classes.insert(cls);
  for (const std::string& cls : classes) {
    auto [path, relative] = SourceOf(cls, sources);
    if (path.empty()) {
      if (cls == target) {
        return absl::NotFoundError(absl::StrCat("no source of ", absl::StrReplaceAll(cls, {{"/", "."}}), " under ",
                                                absl::StrJoin(sources, ", ")));
      }
      continue;  // its constants are the class file's; the target's code holds them as compiled
    }
    paths[relative] = path;
    auto it = substitutes.find(cls);
    if (it != substitutes.end()) files[relative].insert(it->second.begin(), it->second.end());
    else files[relative];
  }
  std::string javac = FindInPath("javac");
  if (javac.empty()) return absl::FailedPreconditionError("javac is not on PATH");
  TS_ASSIGN_OR_RETURN(std::string dir, MakeTempDir("tracespec-derived-"));
  struct Cleanup {
    std::string dir;
    ~Cleanup() { (void)RemoveAll(dir); }
  } cleanup{dir};
  std::vector<std::string> argv = {javac, "-nowarn", "-proc:none", "-encoding", "UTF-8",
                                   "-d",  absl::StrCat(dir, "/out"), "-cp", classpath};
  for (const auto& [relative, names] : files) {
    TS_ASSIGN_OR_RETURN(std::string text, ReadFile(paths[relative]));
    SubstituteInitializers(names, &text);
    std::string copy = absl::StrCat(dir, "/src/", relative);
    TS_RETURN_IF_ERROR(MakeDirs(copy.substr(0, copy.rfind('/'))));
    TS_RETURN_IF_ERROR(WriteFileAtomic(copy, text));
    argv.push_back(copy);
  }
  SubprocessOptions options;
  options.timeout_seconds = 120;
  TS_ASSIGN_OR_RETURN(SubprocessResult run, RunSubprocess(argv, options));
  if (!run.Succeeded()) {
    std::string first = run.stderr_data.substr(0, run.stderr_data.find('\n'));
    return absl::FailedPreconditionError(
        absl::StrCat("javac of ", absl::StrReplaceAll(target, {{"/", "."}}), " with the denied constants substituted: ",
                     run.Describe(), first.empty() ? "" : absl::StrCat(": ", first)));
  }
  TS_ASSIGN_OR_RETURN(std::string bytes, ReadFile(absl::StrCat(dir, "/out/", target, ".class")));
  TS_ASSIGN_OR_RETURN(classfile::ClassFile again, classfile::ParseClassFile(bytes, target));
  std::set<std::string> kept;
  for (const v1::Value& v : CompiledConstants(again)) kept.insert(v.SerializeAsString());
  std::vector<v1::Value> out;
  std::set<std::string> seen;
  for (const v1::Value& v : CompiledConstants(**original)) {
    std::string key = v.SerializeAsString();
    if (!kept.count(key) && seen.insert(key).second) out.push_back(v);
  }
  return out;
}

namespace {

// Every value of a counterexample, in a fixed order: the receiver, the
// arguments, each field and array element of the pre- and post-state
// objects, the returned value.
std::vector<v1::Value*> ValuesOf(v1::Observation* o) {
  std::vector<v1::Value*> out;
  if (o->has_receiver()) out.push_back(o->mutable_receiver());
  for (v1::Value& arg : *o->mutable_args()) out.push_back(&arg);
  for (auto* states : {o->mutable_pre(), o->mutable_post()}) {
    for (v1::ObjectState& state : *states) {
      for (v1::Field& f : *state.mutable_fields()) out.push_back(f.mutable_value());
      for (v1::Value& e : *state.mutable_array()->mutable_elements()) out.push_back(&e);
    }
  }
  if (o->outcome().has_returned()) out.push_back(o->mutable_outcome()->mutable_returned());
  return out;
}

}  // namespace

int MaskConstants(const std::vector<v1::Value>& constants, prompt::ValidationFeedback* feedback) {
  if (constants.empty()) return 0;
  int count = 0;
  for (v1::Observation& o : feedback->counterexamples) {
    for (v1::Value* v : ValuesOf(&o)) count += MaskValue(constants, v);
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

int WithholdWhatDependsOnConstants(check::Validator* validator, check::ValidateRequest request,
                                   const check::CheckResult& consistency,
                                   const std::vector<v1::Value>& constants,
                                   prompt::ValidationFeedback* feedback) {
  if (constants.empty() || consistency.status != check::CheckStatus::kFail ||
      consistency.counterexamples.empty()) {
    return 0;
  }
  // The constants read as substitutes of their type (fixed seed: the same
  // inputs give the same feedback).
  for (const v1::Value& c : constants) {
    switch (c.kind_case()) {
      case v1::Value::kIntValue:
        request.substitute_numbers[c.int_value()] = static_cast<int32_t>(static_cast<uint32_t>(
            probe::SubstituteIntegral(kSubstituteSeed, static_cast<uint32_t>(c.int_value()), 32)));
        break;
      case v1::Value::kLongValue:
        request.substitute_numbers[c.long_value()] = static_cast<int64_t>(probe::SubstituteIntegral(
            kSubstituteSeed, static_cast<uint64_t>(c.long_value()), 64));
        break;
      case v1::Value::kStringValue:
        request.substitute_texts[c.string_value()] =
            probe::SubstituteModifiedUtf8(kSubstituteSeed, c.string_value());
        break;
      default: break;
    }
  }
  if (request.substitute_numbers.empty() && request.substitute_texts.empty()) return 0;
  request.has_observations = false;
  request.observations.clear();
  request.coverage_only = false;
  absl::StatusOr<check::ValidationReport> again = validator->Validate(request);
  const std::vector<v1::Observation> none;
  const std::vector<v1::Observation>& other =
      again.ok() && again->consistency.status == check::CheckStatus::kFail
          ? again->consistency.counterexamples
          : none;
  // The consistency counterexamples come first in the feedback
  // (FeedbackFromReport).
  const size_t n = std::min(consistency.counterexamples.size(), feedback->counterexamples.size());
  int count = 0;
  std::vector<v1::Value> changed;
  for (size_t i = 0; i < n; ++i) {
    v1::Observation real = consistency.counterexamples[i];
    std::vector<v1::Value*> told = ValuesOf(&feedback->counterexamples[i]);
    std::vector<v1::Value*> values = ValuesOf(&real);
    std::vector<v1::Value*> substituted;
    v1::Observation copy;
    if (i < other.size()) {
      copy = other[i];
      substituted = ValuesOf(&copy);
    }
    // Another shape (or no counterexample there): every value counts.
    const bool aligned = substituted.size() == values.size() && told.size() == values.size();
    for (size_t k = 0; k < told.size(); ++k) {
      const bool differs = !aligned || !google::protobuf::util::MessageDifferencer::Equals(
                                           *values[k], *substituted[k]);
      if (!differs || told[k]->has_redacted()) continue;
      if (k < values.size()) changed.push_back(*values[k]);
      told[k]->mutable_redacted();
      ++count;
    }
  }
  // Their text in the explanations: strings of 4 characters or more and
  // distinctive numbers (common/distinctive.h), as for the constants.
  std::vector<v1::Value> texts;
  for (const v1::Value& v : changed) {
    double number = 0;
    if ((v.has_string_value() && v.string_value().size() >= 4) ||
        (NumberOf(v, &number) && DistinctiveNumber(number))) {
      texts.push_back(v);
    }
  }
  MaskConstants(texts, feedback);
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

bool ValidatorOracle::IsTautology(const jml::Expr& predicate) {
  return check::IsTautology(predicate);
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
