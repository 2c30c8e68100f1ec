// Naming a method on the command line, in one place for every subcommand:
// "pkg.C#m" (every overload), "pkg.C#m(I)V" or "pkg.C#m(I)" (a JVM
// descriptor, full or parameters only), and the Java spelling people type,
// "pkg.C#m(int[])", "pkg.C#m(java.lang.String, int)", "pkg.C#m(String)".
// Also the JVM field and method descriptor grammar (JVM spec §4.3) that the
// class-file reader, the observer and the JML front end share.
#ifndef TRACESPEC_COMMON_METHOD_SIGNATURE_H_
#define TRACESPEC_COMMON_METHOD_SIGNATURE_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tracespec {

// Length of the field descriptor at the start of `d` ("I", "[J",
// "Lpkg/A;"), or 0 when there is none. A class name in it holds no '.', '['
// or '('; at most 255 array dimensions.
size_t FieldDescriptorLength(absl::string_view d);

// "(...)R" with R a field descriptor or "V"; with `allow_parameters_only`
// also "(...)".
bool IsMethodDescriptor(absl::string_view d, bool allow_parameters_only = false);

// The Java spelling of a parameter list, without the parentheses ("int[],
// String", "java.util.Map.Entry<K, V>", "long...") as a parameters-only
// descriptor ("([ILjava/lang/String;)"). Type arguments are erased; a
// simple name of a java.lang class (String, Object, Integer, ...) means that
// class, any other simple name a class of `package` ("" = the unnamed
// package); in a qualified name the segments after the first one that
// starts with an upper-case letter are nested classes (Map.Entry ->
// Map$Entry), as is "Outer$Inner".
absl::StatusOr<std::string> JavaParametersToDescriptor(absl::string_view parameters,
                                                       absl::string_view package);

// Checks a binary class name such as "bank.Account" or "pkg.Outer$Inner";
// the error starts with `what`.
absl::Status CheckClassName(absl::string_view name, absl::string_view what);

// "I" -> "int", "[[J" -> "long[][]", "Lpkg/A$B;" -> "pkg.A$B".
std::string DescriptorToJava(absl::string_view field_descriptor);

// "pkg.sub" of "pkg.sub.C", "" for a class in the unnamed package.
std::string PackageOf(absl::string_view binary_class_name);
// "C" of "pkg.C", "Outer$Inner" of "pkg.Outer$Inner".
std::string SimpleClassName(absl::string_view binary_class_name);

struct MethodSignature {
  std::string class_name;   // binary name: "pkg.C", "pkg.Outer$Inner"
  std::string method_name;  // "<init>" for constructors
  std::string descriptor;   // "" (every overload), full "(I)V", or parameters only "(I)"

  // Parses "pkg.C#m", "pkg.C#m(DESCRIPTOR)" or "pkg.C#m(JAVA PARAMETERS)".
  // The text in parentheses is a JVM descriptor when it parses as one
  // ("(I)" is int, not a class named I), else the Java spelling
  // (JavaParametersToDescriptor, in the class's package). Errors name the
  // text and what is wrong.
  static absl::StatusOr<MethodSignature> Parse(absl::string_view text);

  // "pkg.C#m(descriptor)".
  std::string ToString() const;
  // True when the method with this full descriptor is selected.
  bool Matches(absl::string_view full_descriptor) const;
};

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_METHOD_SIGNATURE_H_
