// Method identity and its spellings; see method_id.h.
#include "common/method_id.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "common/method_signature.h"

namespace tracespec {
namespace {

// The parameters' field descriptors of a full or parameters-only method
// descriptor (empty when it does not parse).
std::vector<absl::string_view> ParameterDescriptors(absl::string_view d) {
  std::vector<absl::string_view> out;
  if (d.empty() || d[0] != '(') return out;
  size_t i = 1;
  while (i < d.size() && d[i] != ')') {
    size_t n = FieldDescriptorLength(d.substr(i));
    if (n == 0) return {};
    out.push_back(d.substr(i, n));
    i += n;
  }
  return out;
}

// The parameter type as Display() spells it, in the method's `package`:
// a class of java.lang or of the package by its simple name when that name
// reads back as the same type, else by its binary name.
std::string ShortJavaType(absl::string_view d, absl::string_view package) {
  std::string full = DescriptorToJava(d);
  if (d.empty() || d.back() != ';') return full;
  absl::string_view base = full;
  std::string dims;
  while (absl::ConsumeSuffix(&base, "[]")) dims += "[]";
  std::string owner = PackageOf(base);
  if (owner != "java.lang" && owner != package) return full;
  std::string simple = absl::StrCat(SimpleClassName(base), dims);
  absl::StatusOr<std::string> back = JavaParametersToDescriptor(simple, package);
  return back.ok() && *back == absl::StrCat("(", d, ")") ? simple : full;
}

}  // namespace

absl::StatusOr<MethodId> MethodId::Parse(absl::string_view key) {
  absl::StatusOr<MethodSignature> s = MethodSignature::Parse(key);
  if (!s.ok()) return s.status();
  if (!IsMethodDescriptor(s->descriptor)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "method '", key, "': a full JVM descriptor is needed (e.g. bank.Account#deposit(I)V)"));
  }
  return MethodId(std::move(s->class_name), std::move(s->method_name), std::move(s->descriptor));
}

MethodId MethodId::FromRef(const v1::MethodRef& ref) {
  return MethodId(ref.class_name(), ref.name(), ref.jvm_descriptor());
}

MethodId MethodId::FromProto(const v1::MethodId& id) {
  return MethodId(id.class_name(), id.name(), id.jvm_descriptor());
}

std::string MethodId::Key() const { return absl::StrCat(class_name_, "#", name_, descriptor_); }

std::string MethodId::Display() const {
  std::string package = PackageOf(class_name_);
  std::vector<std::string> params;
  for (absl::string_view p : ParameterDescriptors(descriptor_)) {
    params.push_back(ShortJavaType(p, package));
  }
  std::string display =
      absl::StrCat(class_name_, "#", name_, "(", absl::StrJoin(params, ", "), ")");
  // The display must select this method again; when the Java spelling is
  // ambiguous, the key is.
  absl::StatusOr<MethodSignature> back = MethodSignature::Parse(display);
  if (!back.ok() || back->class_name != class_name_ || back->method_name != name_ ||
      !back->Matches(descriptor_) || !IsMethodDescriptor(descriptor_)) {
    return Key();
  }
  return display;
}

v1::MethodId MethodId::ToProto() const {
  v1::MethodId out;
  out.set_class_name(class_name_);
  out.set_name(name_);
  out.set_jvm_descriptor(descriptor_);
  out.set_display(Display());
  return out;
}

}  // namespace tracespec
