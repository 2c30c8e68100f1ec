// Target parsing; see target.h.
#include "observer/target.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "common/glob.h"

namespace tracespec::observer {

namespace {

// "com.acme.pricing.*#*", "com.acme.Pricing#*", "com.acme.*#get*".
absl::StatusOr<v1::ProbeTarget> ParsePattern(const std::string& spec) {
  auto bad = [&spec](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("--method '", spec, "': ", why));
  };
  size_t hash = spec.find('#');
  if (hash == std::string::npos) return bad("expected CLASS#METHOD (e.g. 'com.acme.pricing.*#*')");
  std::string class_pattern = spec.substr(0, hash);
  std::string method_pattern = spec.substr(hash + 1);
  if (class_pattern.empty() || method_pattern.empty()) {
    return bad("a pattern needs a class part and a method part (e.g. 'com.acme.pricing.*#*')");
  }
  for (char c : class_pattern) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '$' ||
          c == '*' || c == '?')) {
      return bad(absl::StrCat("'", std::string(1, c), "' cannot appear in a class pattern"));
    }
  }
  for (char c : method_pattern) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '*' ||
          c == '?')) {
      return bad(method_pattern.find('(') != std::string::npos
                     ? "a pattern selects methods by name only (no parameter types)"
                     : absl::StrCat("'", std::string(1, c), "' cannot appear in a method pattern"));
    }
  }
  v1::ProbeTarget target;
  target.set_spec(spec);
  target.set_class_name(class_pattern);
  target.set_method_name(method_pattern);
  target.set_pattern(true);
  return target;
}

}  // namespace

absl::StatusOr<v1::ProbeTarget> ParseTarget(const std::string& spec) {
  if (IsGlobPattern(spec)) return ParsePattern(spec);
  absl::StatusOr<MethodSignature> signature = MethodSignature::Parse(spec);
  if (!signature.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--", signature.status().message()));
  }
  if (signature->method_name == "<clinit>") {
    return absl::InvalidArgumentError(
        absl::StrCat("--method '", spec, "': static initializers cannot be observed"));
  }
  v1::ProbeTarget target;
  target.set_spec(spec);
  target.set_class_name(signature->class_name);
  target.set_method_name(signature->method_name);
  target.set_jvm_descriptor(signature->descriptor);
  return target;
}

bool PatternSelects(const v1::ProbeTarget& target, std::string_view class_name,
                    std::string_view method_name) {
  return target.pattern() && method_name != "<init>" && method_name != "<clinit>" &&
         GlobMatch(target.class_name(), class_name) && GlobMatch(target.method_name(), method_name);
}

}  // namespace tracespec::observer
