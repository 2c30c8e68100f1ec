// The method under inference as the prompt shows it: a Java declaration
// derived from bytecode metadata (class, name, JVM descriptor, parameter
// names, declared exceptions), never from the implementation's source.
#ifndef TRACESPEC_AGENT_PROMPT_SIGNATURE_H_
#define TRACESPEC_AGENT_PROMPT_SIGNATURE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::prompt {

struct Parameter {
  std::string name;
  // Java source type, e.g. "int[]", "String", "java.util.List".
  std::string java_type;
  // Declared `/*@ nullable @*/` (a contract for a null argument).
  bool nullable = false;
};

struct MethodSignature {
  // Binary class name, e.g. "bank.Account" or "bank.Outer$Inner".
  std::string class_name;
  // Method name; "<init>" for constructors.
  std::string method_name;
  // JVM method descriptor, e.g. "(I)I".
  std::string jvm_descriptor;
  std::vector<Parameter> params;
  // Java source type of the result; "void" for void methods and constructors.
  std::string return_type;
  bool is_static = false;
  // Access modifier as Java spells it ("public", "protected", "private") or
  // empty for package-private.
  std::string access = "public";
  // Binary names of the exceptions in the method's `throws` clause.
  std::vector<std::string> exceptions;
  // The result declared `/*@ nullable @*/`.
  bool nullable_result = false;
};

// Java source spelling of one JVM field descriptor: "I" -> "int",
// "[[J" -> "long[][]", "Ljava/lang/String;" -> "String" (java.lang types
// lose their package), "Lbank/Outer$Inner;" -> "bank.Outer.Inner".
absl::StatusOr<std::string> JavaTypeFromDescriptor(absl::string_view descriptor);

// Java source spelling of a binary class name ("java.lang.String" ->
// "String", "bank.Outer$Inner" -> "bank.Outer.Inner").
std::string JavaTypeFromBinaryName(absl::string_view binary_name);

// The parameter and return types of a method descriptor, as Java types.
struct DescriptorTypes {
  std::vector<std::string> params;
  std::string result;
};
absl::StatusOr<DescriptorTypes> ParseMethodDescriptor(absl::string_view descriptor);

// A signature with Java types filled in from `jvm_descriptor`. Missing
// parameter names become "arg0", "arg1", ...; more names than parameters is
// an error.
absl::StatusOr<MethodSignature> SignatureFromDescriptor(
    const std::string& class_name, const std::string& method_name,
    const std::string& jvm_descriptor, bool is_static, const std::vector<std::string>& param_names);

// The same from an observation's method reference.
absl::StatusOr<MethodSignature> SignatureFromMethodRef(const v1::MethodRef& method);

// The Java declaration, e.g. "public static int max(int[] a, int n) throws
// IllegalArgumentException"; constructors are named after their class.
// Nullable parameters and results carry JML's `/*@ nullable @*/`.
std::string RenderDeclaration(const MethodSignature& signature);

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_SIGNATURE_H_
