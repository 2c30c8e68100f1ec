// Finding the specification of one method: in a Java source file (the JML
// annotations in front of the method's declaration), in a .jml
// specification file, or in a bare specification text (the contract file of
// `--contract`). Overloads are told apart by JVM descriptor.
#ifndef TRACESPEC_VALIDATOR_JML_SPEC_SOURCE_H_
#define TRACESPEC_VALIDATOR_JML_SPEC_SOURCE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/method_signature.h"
#include "validator/jml/ast.h"
#include "validator/jml/parser.h"
#include "validator/jml/type_checker.h"
#include "validator/jml/type_env.h"

namespace tracespec::jml {

// "pkg.C#m", "pkg.C#m(I)V", "pkg.C#m(I)" (parameters only),
// "pkg.C#m(int[])" (Java spelling), "pkg.C#<init>(I)V": the one parser of
// common/method_signature.h.
using MethodSelector = ::tracespec::MethodSignature;

enum class ContractFormat {
  kAuto,  // by extension: .java, .jml, anything else a specification text
  kJava,
  kJml,
  kSpecText,
};

struct LoadOptions {
  ParseOptions parse;
  // Classes beyond the contract file (e.g. the class-file reader's view of
  // the classpath); JdkTypeEnvironment() is always consulted last. May be null.
  const TypeEnvironment* classpath = nullptr;
};

// A method's specification and what is needed to type-check it. Movable;
// the pointers point into the owned unit or text.
struct MethodSpecSource {
  std::string file;
  SourceKind kind = SourceKind::kSpecText;
  MethodSelector selector;
  std::unique_ptr<CompilationUnit> unit;       // .java/.jml
  std::unique_ptr<SpecText> text;              // specification text
  std::unique_ptr<TypeEnvironment> chain;      // classpath + JDK
  std::unique_ptr<SourceTypeEnvironment> env;  // the unit's classes over `chain` (.java/.jml)
  TypeDecl* type_decl = nullptr;               // the class declaring the method (.java/.jml)
  MethodDecl* method_decl = nullptr;           // the method's declaration, if the file has one
  MethodSpec* spec = nullptr;                  // the specification (never null)
  std::string descriptor;                      // the method's descriptor when the file tells it

  // The environment to type-check against: env (sources over the
  // classpath) or, for a specification text, the classpath chain.
  const TypeEnvironment& environment() const;
  // The type-checking context of the method.
  absl::StatusOr<MethodContext> Context(const TypeCheckOptions& options = {}) const;
};

// Parses `content` (named `file`) and finds the specification of
// `selector`'s method. Errors: the class or method is missing, the method
// is overloaded and no descriptor was given, or the specification (or the
// class-level annotations of its class) has JML syntax errors.
absl::StatusOr<MethodSpecSource> ParseMethodSpecSource(absl::string_view content,
                                                       const std::string& file,
                                                       ContractFormat format,
                                                       const MethodSelector& selector,
                                                       const LoadOptions& options = {});
// Reads `path` and calls ParseMethodSpecSource.
absl::StatusOr<MethodSpecSource> LoadMethodSpec(const std::string& path,
                                                const MethodSelector& selector,
                                                const LoadOptions& options = {});

// A specification text split into its annotation lines and what its own
// declaration (`void sort(/*@ nullable @*/ int[] values);`, after the
// annotations) says of nullity: per parameter and of the result,
// kUnspecified where it says nothing. A text without a declaration, or one
// that does not parse, comes back whole with nothing declared.
struct SpecTextDeclaration {
  std::string annotations;
  bool declared = false;
  std::vector<Nullity> params;
  Nullity result = Nullity::kUnspecified;
};
SpecTextDeclaration SplitSpecTextDeclaration(absl::string_view text);

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_SPEC_SOURCE_H_
