// Policy loading and validation; see policy.h.
#include "observer/policy.h"

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/text_format.h"

namespace tracespec::observer {
namespace {

// The text of policies/default.textproto, generated at build time.
#include "observer/default_policy.inc"

using google::protobuf::FieldDescriptor;
using google::protobuf::TextFormat;

// Finds where fields were written, to point value errors at them.
class Locator {
 public:
  Locator(const std::string& name, const TextFormat::ParseInfoTree* tree)
      : name_(name), tree_(tree) {}

  // Error at `field` (index for repeated fields, -1 otherwise) of the
  // message described by `tree` (the top level when null).
  absl::Status Error(const std::string& field_name, int index, const std::string& message,
                     const TextFormat::ParseInfoTree* tree = nullptr) const {
    const TextFormat::ParseInfoTree* at = tree != nullptr ? tree : tree_;
    const google::protobuf::Descriptor* type =
        tree == nullptr ? v1::RedactionPolicy::descriptor() : v1::RecordRule::descriptor();
    const FieldDescriptor* field = type->FindFieldByName(field_name);
    int line = 0, column = 0;
    if (field != nullptr && at != nullptr) {
      TextFormat::ParseLocation location = at->GetLocation(field, index);
      if (location.line >= 0) {
        line = location.line + 1;
        column = location.column + 1;
      }
    }
    if (line == 0) {  // Not written at all: point at the start of the file.
      line = 1;
      column = 1;
    }
    return InputError(name_, line, column, message);
  }

  const TextFormat::ParseInfoTree* Nested(const std::string& field_name, int index) const {
    const FieldDescriptor* field = v1::RedactionPolicy::descriptor()->FindFieldByName(field_name);
    return tree_->GetTreeForNested(field, index);
  }

 private:
  const std::string& name_;
  const TextFormat::ParseInfoTree* tree_;
};

absl::Status Validate(v1::RedactionPolicy& policy, const Locator& at) {
  if (policy.format_version() != v1::FORMAT_VERSION_1) {
    return at.Error("format_version", -1,
                    policy.format_version() == 0
                        ? "format_version is missing (write `format_version: FORMAT_VERSION_1`)"
                        : "format_version is not supported (this build reads FORMAT_VERSION_1)");
  }
  if (policy.max_depth() < 0 || policy.max_depth() > kMaxMaxDepth) {
    return at.Error("max_depth", -1,
                    absl::StrCat("max_depth must be between 1 and ", kMaxMaxDepth, " (0 = ",
                                 kDefaultMaxDepth, "), not ", policy.max_depth()));
  }
  if (policy.max_array_length() < 0 || policy.max_array_length() > kMaxMaxArrayLength) {
    return at.Error("max_array_length", -1,
                    absl::StrCat("max_array_length must be between 1 and ", kMaxMaxArrayLength,
                                 " (0 = ", kDefaultMaxArrayLength, "), not ",
                                 policy.max_array_length()));
  }
  if (policy.max_string_length() < 0) {
    return at.Error("max_string_length", -1,
                    absl::StrCat("max_string_length must be 0 (no limit) or positive, not ",
                                 policy.max_string_length()));
  }
  if (policy.max_observations_per_method() < -1) {
    return at.Error("max_observations_per_method", -1,
                    absl::StrCat("max_observations_per_method must be positive, 0 (= ",
                                 kDefaultMaxObservationsPerMethod, ") or -1 (keep all), not ",
                                 policy.max_observations_per_method()));
  }
  for (int i = 0; i < policy.deny_size(); ++i) {
    if (policy.deny(i).empty()) return at.Error("deny", i, "a deny pattern is empty");
  }
  for (int i = 0; i < policy.deny_env_size(); ++i) {
    const std::string& name = policy.deny_env(i);
    if (name.empty()) return at.Error("deny_env", i, "an environment variable pattern is empty");
    if (name.find('=') != std::string::npos) {
      return at.Error("deny_env", i,
                      absl::StrCat("'", name, "' cannot name an environment variable (it holds '=')"));
    }
  }
  for (int i = 0; i < policy.deny_property_size(); ++i) {
    if (policy.deny_property(i).empty()) {
      return at.Error("deny_property", i, "a system property pattern is empty");
    }
  }
  for (int i = 0; i < policy.sensitive_names_size(); ++i) {
    if (policy.sensitive_names(i).empty()) {
      return at.Error("sensitive_names", i, "a sensitive name is empty");
    }
  }
  for (int i = 0; i < policy.record_size(); ++i) {
    const v1::RecordRule& rule = policy.record(i);
    if (rule.class_pattern().empty()) {
      return at.Error("record", i, "a record rule needs a class_pattern");
    }
    for (int f = 0; f < rule.fields_size(); ++f) {
      if (rule.fields(f).empty()) {
        return at.Error("fields", f, "a record rule names an empty field",
                        at.Nested("record", i));
      }
    }
  }
  if (policy.redaction() == v1::REDACTION_MODE_UNSPECIFIED) policy.set_redaction(v1::MARK);
  if (policy.max_depth() == 0) policy.set_max_depth(kDefaultMaxDepth);
  if (policy.max_array_length() == 0) policy.set_max_array_length(kDefaultMaxArrayLength);
  if (policy.max_observations_per_method() == 0) {
    policy.set_max_observations_per_method(kDefaultMaxObservationsPerMethod);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::RedactionPolicy> ParsePolicy(const std::string& text, const std::string& name) {
  v1::RedactionPolicy policy;
  // Syntax errors (with line:column) first.
  TS_RETURN_IF_ERROR(ParseTextProto(text, name, &policy));
  // The same text again, now remembering where each field was written.
  TextFormat::Parser parser;
  TextFormat::ParseInfoTree tree;
  parser.WriteLocationsTo(&tree);
  v1::RedactionPolicy located;
  if (!parser.ParseFromString(text, &located)) {
    return InputError(name, 0, 0, "cannot parse the policy");
  }
  TS_RETURN_IF_ERROR(Validate(policy, Locator(name, &tree)));
  return policy;
}

absl::StatusOr<v1::RedactionPolicy> LoadPolicy(const std::string& path) {
  TS_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return ParsePolicy(text, path);
}

absl::StatusOr<v1::RedactionPolicy> DefaultPolicy() {
  return ParsePolicy(kDefaultPolicyText, "policies/default.textproto (built in)");
}

}  // namespace tracespec::observer
