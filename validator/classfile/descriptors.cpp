// Descriptor parsing; see descriptors.h.
#include "validator/classfile/descriptors.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "validator/classfile/class_file.h"

namespace tracespec::classfile {

bool IsFieldDescriptor(absl::string_view d) {
  return !d.empty() && FieldDescriptorLength(d) == d.size();
}

absl::StatusOr<MethodDescriptor> ParseMethodDescriptor(absl::string_view d) {
  auto bad = [&] {
    return absl::InvalidArgumentError(absl::StrCat("malformed method descriptor \"", d, "\""));
  };
  if (d.empty() || d[0] != '(') return bad();
  MethodDescriptor out;
  size_t i = 1;
  while (i < d.size() && d[i] != ')') {
    size_t n = FieldDescriptorLength(d.substr(i));
    if (n == 0) return bad();
    out.params.emplace_back(d.substr(i, n));
    i += n;
  }
  if (i >= d.size()) return bad();
  absl::string_view ret = d.substr(i + 1);
  if (ret != "V" && !IsFieldDescriptor(ret)) return bad();
  out.ret = std::string(ret);
  return out;
}

std::string ClassNameToDescriptor(absl::string_view internal_name) {
  if (!internal_name.empty() && internal_name[0] == '[') return std::string(internal_name);
  return absl::StrCat("L", internal_name, ";");
}

std::string DescriptorToClassName(absl::string_view descriptor) {
  if (descriptor.size() >= 2 && descriptor[0] == 'L' && descriptor.back() == ';') {
    return std::string(descriptor.substr(1, descriptor.size() - 2));
  }
  return std::string(descriptor);
}

}  // namespace tracespec::classfile
