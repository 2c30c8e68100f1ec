// Field and method descriptors (JVM spec §4.3): parsing and conversion to
// Java source spelling.
#ifndef TRACESPEC_VALIDATOR_CLASSFILE_DESCRIPTORS_H_
#define TRACESPEC_VALIDATOR_CLASSFILE_DESCRIPTORS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/method_signature.h"

namespace tracespec::classfile {

struct MethodDescriptor {
  std::vector<std::string> params;  // field descriptors, e.g. "I", "[J", "Lpkg/A;"
  std::string ret;                  // a field descriptor or "V"
};

// Length of the field descriptor at the start of `d`, or 0 when it is not one
// (the grammar lives in common/method_signature.h).
using ::tracespec::FieldDescriptorLength;
bool IsFieldDescriptor(absl::string_view d);
absl::StatusOr<MethodDescriptor> ParseMethodDescriptor(absl::string_view d);

// "J"/"D" take two local slots and two stack words.
inline bool IsWide(absl::string_view d) { return d == "J" || d == "D"; }
inline bool IsReference(absl::string_view d) {
  return !d.empty() && (d[0] == 'L' || d[0] == '[');
}

// "I" -> "int", "[[J" -> "long[][]", "Lpkg/A$B;" -> "pkg.A$B" (common/method_signature.h).
using ::tracespec::DescriptorToJava;
// The class or array name as a descriptor: "pkg/A" -> "Lpkg/A;", "[I" -> "[I".
std::string ClassNameToDescriptor(absl::string_view internal_name);
// Inverse of ClassNameToDescriptor for reference descriptors.
std::string DescriptorToClassName(absl::string_view descriptor);

}  // namespace tracespec::classfile

#endif  // TRACESPEC_VALIDATOR_CLASSFILE_DESCRIPTORS_H_
