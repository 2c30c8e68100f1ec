// The built-in part of the closed world: the java.lang (and a few java.io /
// java.util) classes that analysed code commonly touches, with their
// hierarchy and the fields the models use, and the keys of the library
// methods that have a model ("owner.name(descriptor)"). Everything else in
// the JDK is unknown to the executor: calling it is reported as unsupported.
#ifndef TRACESPEC_VALIDATOR_SYMEX_LIBRARY_CLASSES_H_
#define TRACESPEC_VALIDATOR_SYMEX_LIBRARY_CLASSES_H_

#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace tracespec::symex {

struct LibraryField {
  std::string name;
  std::string descriptor;
  bool is_static = false;
};

struct LibraryClassSpec {
  std::string name;
  std::string super_name;
  std::vector<std::string> interfaces;
  bool is_interface = false;
  bool is_abstract = false;
  bool closed = false;        // unlisted methods are unknown (may be overridden)
  bool no_instances = false;  // never instantiated (Math, System)
  std::vector<LibraryField> fields;
};

const std::vector<LibraryClassSpec>& LibraryClasses();

// Keys of the library methods with a C++ model (the natives of
// validator/jdk/jdk_models.h), "java/lang/Math.abs(I)I".
const std::set<std::string>& ModelledLibraryMethods();
bool IsModelledLibraryMethod(absl::string_view key);

// The SV-COMP harness class whose methods are modelled as inputs.
inline constexpr absl::string_view kVerifierClass = "org/sosy_lab/sv_benchmarks/Verifier";

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_LIBRARY_CLASSES_H_
