// Java spelling of JVM descriptors and method declarations; see signature.h.
#include "agent/prompt/signature.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace tracespec::prompt {
namespace {

// Parses one field type starting at descriptor[*pos] and advances *pos.
absl::StatusOr<std::string> ParseFieldType(absl::string_view descriptor, size_t* pos) {
  int dimensions = 0;
  while (*pos < descriptor.size() && descriptor[*pos] == '[') {
    ++dimensions;
    ++*pos;
  }
  if (*pos >= descriptor.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("descriptor \"", descriptor, "\": type expected at offset ", *pos));
  }
  std::string base;
  char c = descriptor[*pos];
  switch (c) {
    case 'B': base = "byte"; break;
    case 'C': base = "char"; break;
    case 'D': base = "double"; break;
    case 'F': base = "float"; break;
    case 'I': base = "int"; break;
    case 'J': base = "long"; break;
    case 'S': base = "short"; break;
    case 'Z': base = "boolean"; break;
    case 'V': base = "void"; break;
    case 'L': {
      size_t end = descriptor.find(';', *pos);
      if (end == absl::string_view::npos || end == *pos + 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "descriptor \"", descriptor, "\": unterminated class type at offset ", *pos));
      }
      std::string binary =
          absl::StrReplaceAll(descriptor.substr(*pos + 1, end - *pos - 1), {{"/", "."}});
      base = JavaTypeFromBinaryName(binary);
      *pos = end;
      break;
    }
    default:
      return absl::InvalidArgumentError(absl::StrCat("descriptor \"", descriptor,
                                                     "\": unknown type '", std::string(1, c),
                                                     "' at offset ", *pos));
  }
  ++*pos;
  if (base == "void" && dimensions > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("descriptor \"", descriptor, "\": array of void"));
  }
  for (int i = 0; i < dimensions; ++i) base += "[]";
  return base;
}

}  // namespace

std::string JavaTypeFromBinaryName(absl::string_view binary_name) {
  std::string name = absl::StrReplaceAll(binary_name, {{"/", "."}, {"$", "."}});
  constexpr absl::string_view kLang = "java.lang.";
  if (absl::StartsWith(name, kLang) && name.find('.', kLang.size()) == std::string::npos) {
    return name.substr(kLang.size());
  }
  return name;
}

absl::StatusOr<std::string> JavaTypeFromDescriptor(absl::string_view descriptor) {
  size_t pos = 0;
  auto type = ParseFieldType(descriptor, &pos);
  if (!type.ok()) return type.status();
  if (pos != descriptor.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("descriptor \"", descriptor, "\": unexpected text at offset ", pos));
  }
  if (*type == "void") {
    return absl::InvalidArgumentError(
        absl::StrCat("descriptor \"", descriptor, "\": void is not a field type"));
  }
  return type;
}

absl::StatusOr<DescriptorTypes> ParseMethodDescriptor(absl::string_view descriptor) {
  if (descriptor.empty() || descriptor[0] != '(') {
    return absl::InvalidArgumentError(
        absl::StrCat("method descriptor \"", descriptor, "\": must start with '('"));
  }
  DescriptorTypes out;
  size_t pos = 1;
  while (pos < descriptor.size() && descriptor[pos] != ')') {
    auto type = ParseFieldType(descriptor, &pos);
    if (!type.ok()) return type.status();
    if (*type == "void") {
      return absl::InvalidArgumentError(
          absl::StrCat("method descriptor \"", descriptor, "\": void parameter"));
    }
    out.params.push_back(*std::move(type));
  }
  if (pos >= descriptor.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("method descriptor \"", descriptor, "\": missing ')'"));
  }
  ++pos;
  auto result = ParseFieldType(descriptor, &pos);
  if (!result.ok()) return result.status();
  if (pos != descriptor.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("method descriptor \"", descriptor, "\": unexpected text at offset ", pos));
  }
  out.result = *std::move(result);
  return out;
}

absl::StatusOr<MethodSignature> SignatureFromDescriptor(
    const std::string& class_name, const std::string& method_name,
    const std::string& jvm_descriptor, bool is_static,
    const std::vector<std::string>& param_names) {
  auto types = ParseMethodDescriptor(jvm_descriptor);
  if (!types.ok()) return types.status();
  if (param_names.size() > types->params.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(class_name, ".", method_name, jvm_descriptor, ": ", param_names.size(),
                     " parameter names for ", types->params.size(), " parameters"));
  }
  MethodSignature signature;
  signature.class_name = class_name;
  signature.method_name = method_name;
  signature.jvm_descriptor = jvm_descriptor;
  signature.is_static = is_static;
  signature.return_type = types->result;
  for (size_t i = 0; i < types->params.size(); ++i) {
    std::string name =
        i < param_names.size() && !param_names[i].empty() ? param_names[i] : absl::StrCat("arg", i);
    signature.params.push_back({std::move(name), types->params[i]});
  }
  return signature;
}

absl::StatusOr<MethodSignature> SignatureFromMethodRef(const v1::MethodRef& method) {
  return SignatureFromDescriptor(method.class_name(), method.name(), method.jvm_descriptor(),
                                 method.is_static(),
                                 {method.param_names().begin(), method.param_names().end()});
}

std::string RenderDeclaration(const MethodSignature& signature) {
  constexpr char kNullableMark[] = "/*@ nullable @*/";
  std::string out = signature.access;
  auto add = [&out](absl::string_view word) {
    if (!out.empty()) out += ' ';
    absl::StrAppend(&out, word);
  };
  bool constructor = signature.method_name == "<init>";
  if (signature.is_static) add("static");
  if (constructor) {
    std::string type = JavaTypeFromBinaryName(signature.class_name);
    size_t dot = type.rfind('.');
    add(dot == std::string::npos ? type : type.substr(dot + 1));
  } else {
    if (signature.nullable_result) add(kNullableMark);
    add(signature.return_type);
    add(signature.method_name);
  }
  std::vector<std::string> params;
  for (const Parameter& p : signature.params) {
    params.push_back(absl::StrCat(p.nullable ? kNullableMark : "", p.nullable ? " " : "",
                                  p.java_type, " ", p.name));
  }
  absl::StrAppend(&out, "(", absl::StrJoin(params, ", "), ")");
  if (!signature.exceptions.empty()) {
    std::vector<std::string> thrown;
    for (const std::string& e : signature.exceptions) thrown.push_back(JavaTypeFromBinaryName(e));
    absl::StrAppend(&out, " throws ", absl::StrJoin(thrown, ", "));
  }
  return out;
}

}  // namespace tracespec::prompt
