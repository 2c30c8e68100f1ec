// Target parsing; see target.h.
#include "observer/target.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/did_you_mean.h"
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

// Whether a target's descriptor selects `descriptor`, as the probe decides:
// none selects every overload, a parameters-only one ("([I)") those with
// these parameters, a full one just itself.
bool DescriptorSelects(const std::string& wanted, const std::string& descriptor) {
  if (wanted.empty()) return true;
  return wanted.back() == ')' ? descriptor.compare(0, wanted.size(), wanted) == 0
                              : descriptor == wanted;
}

// A method a pattern selects when its name matches: public, with code, not
// synthetic, a bridge or a constructor (the probe's rule).
bool PatternCandidate(const classfile::Method& m) {
  constexpr uint16_t kAccBridge = classfile::kAccVolatile;  // the same bit, on methods
  constexpr uint16_t kSkipped =
      classfile::kAccSynthetic | kAccBridge | classfile::kAccAbstract | classfile::kAccNative;
  return (m.access & classfile::kAccPublic) != 0 && (m.access & kSkipped) == 0 &&
         m.code.has_value() && m.name != "<init>" && m.name != "<clinit>";
}

absl::Status ResolvePattern(const v1::ProbeTarget& target, classfile::ClassPath* class_path,
                            const std::string& where) {
  std::vector<std::string> classes;
  for (const std::string& internal : class_path->ListClasses()) {
    std::string binary = classfile::InternalToBinary(internal);
    if (GlobMatch(target.class_name(), binary)) classes.push_back(binary);
  }
  if (classes.empty()) {
    return absl::NotFoundError(absl::StrCat("--method ", target.spec(), ": no class on ", where,
                                            " matches ", target.class_name()));
  }
  for (const std::string& name : classes) {
    absl::StatusOr<const classfile::ClassFile*> cls = class_path->Load(name);
    if (!cls.ok()) return absl::OkStatus();  // The probe reports a class it cannot read.
    for (const classfile::Method& m : (*cls)->methods) {
      if (PatternCandidate(m) && GlobMatch(target.method_name(), m.name)) return absl::OkStatus();
    }
  }
  return absl::NotFoundError(absl::StrCat(
      "--method ", target.spec(), ": no public method matching ", target.method_name(), " in the ",
      classes.size(), classes.size() == 1 ? " class" : " classes", " on ", where, " matching ",
      target.class_name()));
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

absl::Status ResolveTarget(const v1::ProbeTarget& target, classfile::ClassPath* class_path,
                           bool class_required, const std::string& where) {
  if (target.pattern()) {
    return class_required ? ResolvePattern(target, class_path, where) : absl::OkStatus();
  }
  const std::string prefix = absl::StrCat("--method ", target.spec(), ": ");
  absl::StatusOr<const classfile::ClassFile*> cls = class_path->Load(target.class_name());
  if (!cls.ok()) {
    // A class file that does not parse is the probe's to report.
    if (!absl::IsNotFound(cls.status()) || !class_required) return absl::OkStatus();
    std::vector<std::string> names;
    for (const std::string& internal : class_path->ListClasses()) {
      names.push_back(classfile::InternalToBinary(internal));
    }
    std::string hint = DidYouMean(target.class_name(), names);
    return absl::NotFoundError(absl::StrCat(
        prefix, "class ", target.class_name(), " is not on ", where,
        hint.empty() ? " (check the name; classes of the JDK itself cannot be observed)" : hint));
  }
  std::vector<std::string> no_code;
  bool named = false;
  bool with_code = false;
  std::set<std::string> available;
  std::set<std::string> names;
  for (const classfile::Method& m : (*cls)->methods) {
    available.insert(m.name + m.descriptor);
    if (m.name != "<clinit>") names.insert(m.name);
    if (m.name != target.method_name()) continue;
    named = true;
    if (!DescriptorSelects(target.jvm_descriptor(), m.descriptor)) continue;
    if (m.code.has_value() && !m.is_abstract() && !m.is_native()) {
      with_code = true;
    } else {
      no_code.push_back(m.name + m.descriptor + ": abstract or native, no code to observe");
    }
  }
  if (with_code) return absl::OkStatus();
  if (!no_code.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, absl::StrJoin(no_code, "; ")));
  }
  // A name that exists with other descriptors needs no suggestion: the list shows them.
  std::string meant =
      named ? "" : ClosestName(target.method_name(), {names.begin(), names.end()});
  return absl::NotFoundError(absl::StrCat(
      prefix, "no method ", target.method_name(), target.jvm_descriptor(), " in ",
      target.class_name(), " (", meant.empty() ? "" : absl::StrCat("did you mean '", meant, "'?; "),
      "it has: ", absl::StrJoin(available, ", "), ")"));
}

bool PatternSelects(const v1::ProbeTarget& target, std::string_view class_name,
                    std::string_view method_name) {
  return target.pattern() && method_name != "<init>" && method_name != "<clinit>" &&
         GlobMatch(target.class_name(), class_name) && GlobMatch(target.method_name(), method_name);
}

}  // namespace tracespec::observer
