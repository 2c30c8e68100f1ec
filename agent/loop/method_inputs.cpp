// Resolving a method and gathering its prompt inputs; see method_inputs.h.
#include "agent/loop/method_inputs.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/prompt/disclosure.h"
#include "common/files.h"
#include "common/status.h"
#include "google/protobuf/util/json_util.h"
#include "observer/exclusion.h"
#include "observer/probe/substitute_value.h"
#include "tracespec/v1/summary.pb.h"
#include "validator/classfile/class_path.h"
#include "validator/jml/spec_source.h"

namespace tracespec::loop {
namespace {

// The source of test method `test_id` ("pkg.T#m"), or "".
std::string TestMethodSource(const std::string& tests_src, const std::string& test_id) {
  size_t hash = test_id.find('#');
  if (tests_src.empty() || hash == std::string::npos) return "";
  std::string class_name = test_id.substr(0, hash);
  std::string method = test_id.substr(hash + 1);
  method = method.substr(0, method.find('('));
  std::string relative = class_name.substr(0, class_name.find('$'));
  std::replace(relative.begin(), relative.end(), '.', '/');
  auto text = ReadFile(tests_src + "/" + relative + ".java");
  if (!text.ok()) return "";
  return observer::FindTestMethodSource(*text, class_name, method);
}

// The observations' summary.json, when there is one that parses.
std::optional<v1::ObserveSummary> ReadObserveSummary(const std::string& observations_path) {
  if (!IsDirectory(observations_path)) return std::nullopt;
  absl::StatusOr<std::string> text = ReadFile(observations_path + "/summary.json");
  if (!text.ok()) return std::nullopt;
  v1::ObserveSummary summary;
  google::protobuf::util::JsonParseOptions parse;
  parse.ignore_unknown_fields = true;
  if (!google::protobuf::util::JsonStringToMessage(*text, &summary, parse).ok()) {
    return std::nullopt;
  }
  return summary;
}

// Whether the observations' summary lists `method` as a target the tests
// never called.
bool ObservedButNeverCalled(const std::optional<v1::ObserveSummary>& summary,
                            const std::string& method) {
  if (!summary.has_value()) return false;
  for (const v1::MethodSummary& m : summary->methods()) {
    if (m.method() == method && m.observations() == 0) return true;
  }
  return false;
}

// Replaces every occurrence of `value` in *text; false when there is none.
bool ReplaceAll(const std::string& value, std::string* text) {
  if (value.empty()) return false;
  bool found = false;
  const std::string mask = kDeniedLiteral;
  for (size_t at = text->find(value); at != std::string::npos;
       at = text->find(value, at + mask.size())) {
    text->replace(at, value.size(), mask);
    found = true;
  }
  return found;
}

}  // namespace

MaskedSource MaskDeniedLiterals(std::string text, const std::set<uint64_t>& denied_constants) {
  MaskedSource out;
  if (denied_constants.empty()) {
    out.text = std::move(text);
    return out;
  }
  std::vector<std::string> denied;
  for (const std::string& value : prompt::JavaStringLiterals(text)) {
    if (denied_constants.count(probe::ConstantKey(std::string_view(value))) != 0) {
      denied.push_back(value);
    }
  }
  for (const std::string& digits : prompt::JavaIntegerLiterals(text)) {
    int64_t value = 0;
    if (absl::SimpleAtoi(digits, &value) && denied_constants.count(probe::ConstantKey(value)) != 0) {
      denied.push_back(digits[0] == '-' ? digits.substr(1) : digits);
    }
  }
  // Longest first: a denied value inside a longer one is masked with it.
  std::stable_sort(denied.begin(), denied.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  std::vector<std::string> masked;
  for (const std::string& value : denied) {
    if (ReplaceAll(value, &text)) {
      ++out.masked;
      masked.push_back(value);
      continue;
    }
    // Gone with a longer one, or written otherwise than it reads.
    bool inside = std::any_of(masked.begin(), masked.end(), [&](const std::string& longer) {
      return longer.find(value) != std::string::npos;
    });
    if (!inside) out.unmaskable = true;
  }
  out.text = std::move(text);
  return out;
}

absl::StatusOr<MethodInputs> LoadMethodInputs(const std::string& selector_text,
                                              classfile::ClassPath& path,
                                              const std::vector<v1::Observation>& all_observations,
                                              const std::string& observations_path,
                                              const std::string& tests_src) {
  TS_ASSIGN_OR_RETURN(jml::MethodSelector selector, jml::MethodSelector::Parse(selector_text));
  TS_ASSIGN_OR_RETURN(const classfile::ClassFile* cls, path.Load(selector.class_name));
  std::vector<const classfile::Method*> matching;
  for (const classfile::Method& m : cls->methods) {
    if (m.name == selector.method_name && selector.Matches(m.descriptor)) matching.push_back(&m);
  }
  if (matching.empty()) {
    return absl::NotFoundError(absl::StrCat("class ", selector.class_name, " (", cls->source,
                                            ") declares no method ", selector.method_name,
                                            selector.descriptor));
  }
  if (matching.size() > 1) {
    std::vector<std::string> options;
    for (const classfile::Method* m : matching) options.push_back(m->name + m->descriptor);
    return absl::InvalidArgumentError(absl::StrCat(
        "the method is overloaded; add the descriptor, one of ", absl::StrJoin(options, ", ")));
  }
  const classfile::Method& method = *matching.front();

  MethodInputs out;
  out.selector = selector_text;
  out.resolved = absl::StrCat(selector.class_name, "#", method.name, method.descriptor);
  out.class_is_public = (cls->access & classfile::kAccPublic) != 0;
  out.class_is_nested = selector.class_name.find('$') != std::string::npos;

  TS_ASSIGN_OR_RETURN(out.prompt.signature,
                      prompt::SignatureFromDescriptor(selector.class_name, method.name,
                                                      method.descriptor, method.is_static(),
                                                      cls->ParameterNames(method)));
  out.prompt.signature.access = method.is_public()                              ? "public"
                                : (method.access & classfile::kAccProtected) != 0 ? "protected"
                                : method.is_private()                          ? "private"
                                                                                : "";
  out.prompt.extra_names.classes.push_back(selector.class_name);
  for (const classfile::Field& f : cls->fields) out.prompt.extra_names.fields.push_back(f.name);
  for (const classfile::Method& m : cls->methods) {
    if (m.name != "<init>" && m.name != "<clinit>") out.prompt.extra_names.methods.push_back(m.name);
  }

  const std::optional<v1::ObserveSummary> observe_summary = ReadObserveSummary(observations_path);
  for (const v1::Observation& o : all_observations) {
    if (o.method().class_name() == selector.class_name && o.method().name() == method.name &&
        o.method().jvm_descriptor() == method.descriptor) {
      out.prompt.observations.push_back(o);
    }
  }
  if (out.prompt.observations.empty()) {
    if (ObservedButNeverCalled(observe_summary, out.resolved)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the tests never call ", out.resolved, " (", observations_path,
          "/summary.json lists it with 0 observations): add a test that calls it and re-run "
          "`tracespec observe`"));
    }
    return absl::FailedPreconditionError(
        absl::StrCat("no observation of ", out.resolved, " in ", observations_path,
                     ": run `tracespec observe` with --method ", selector_text, " first"));
  }

  std::set<uint64_t> denied_constants;
  if (observe_summary.has_value()) {
    denied_constants.insert(observe_summary->denied_constants().begin(),
                            observe_summary->denied_constants().end());
    out.denied_keys.Add(observe_summary->denied_text_keys(),
                        observe_summary->denied_number_keys());
  }
  std::set<std::string> tests;
  for (const v1::Observation& o : out.prompt.observations) {
    if (!o.test_id().empty()) tests.insert(o.test_id());
  }
  for (const std::string& test : tests) {
    std::string text = TestMethodSource(tests_src, test);
    if (text.empty()) {
      if (!tests_src.empty()) out.tests_without_source.push_back(test);
      continue;
    }
    MaskedSource masked = MaskDeniedLiterals(std::move(text), denied_constants);
    if (masked.unmaskable) {
      out.tests_source_withheld.push_back(test);
      continue;
    }
    out.literals_masked += masked.masked;
    out.prompt.tests.push_back({test, std::move(masked.text)});
  }
  return out;
}

}  // namespace tracespec::loop
