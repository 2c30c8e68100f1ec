// The JML type checker: resolves every name in a specification (parameters,
// fields of `this` and other objects, ghost and model fields, bound and
// spec-case variables, \result, locals of in-body annotations), checks types
// by Java's rules extended with JML's operators, \bigint and \real, and
// annotates each expression with its Type and Symbol (ast.h) in place.
// Diagnostics name file:line:column and the construct, e.g.
//   Account.jml:4:20: unknown field 'balanse' in class bank.Account
// Valid JML that the validator does not support fails with an Unimplemented
// status ("unsupported: ..."); everything else ill-formed with
// InvalidArgument. All errors of one call are reported, one per line.
#ifndef TRACESPEC_VALIDATOR_JML_TYPE_CHECKER_H_
#define TRACESPEC_VALIDATOR_JML_TYPE_CHECKER_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/jml/ast.h"
#include "validator/jml/type_env.h"
#include "validator/jml/types.h"

namespace tracespec::jml {

// Arithmetic semantics of specification expressions (JML RM §12.3):
// kJava (default) wraps around like Java; kSafe is Java arithmetic where an
// overflow is a well-definedness error; kBigint computes integral
// arithmetic in \bigint (the checker types int/long +,-,*,/,% as \bigint).
enum class MathMode { kJava, kSafe, kBigint };

// The method a specification belongs to.
struct MethodContext {
  std::string class_name;  // binary name of the declaring class
  MethodInfo method;       // descriptor, static/constructor, parameter and result types
  std::vector<std::string> param_names;  // one per parameter
  // Effective nullity of parameters and result (JML's default applied):
  // reference-typed ones are kNonNull unless declared (or defaulted by the
  // class) nullable; primitive ones kUnspecified.
  std::vector<Nullity> param_nullity;
  Nullity result_nullity = Nullity::kUnspecified;
  NameContext names;  // package and imports of the specification's file
  MathMode math_mode = MathMode::kJava;
  Visibility visibility = Visibility::kPackage;  // of the method (lightweight cases inherit it)

  std::string Describe() const;  // "bank.Account.deposit(I)V"
};

struct TypeCheckOptions {
  // JML's default nullity for reference declarations without nullable or
  // non_null when the class says neither nullable_by_default nor
  // non_null_by_default (JML RM §6.2.13: non_null).
  Nullity default_nullity = Nullity::kNonNull;
  // JML's rule that a public specification may mention only public (or
  // spec_public) names. Off by default: contracts inferred for compiled
  // code legitimately talk about private fields.
  bool enforce_visibility = false;
  // Only methods declared or known pure may be called in specifications.
  bool require_pure_calls = true;
};

// A construct that was parsed and type-checked but that the validator does
// not check (diverges, when, accessible, captures, callable, working_space,
// duration, measured_by, implies_that, for_example, readable, ...).
struct CheckNote {
  SourceSpan span;
  std::string message;  // "diverges clause parsed but not checked"
};

struct TypeCheckResult {
  std::vector<CheckNote> notes;
  MathMode math_mode = MathMode::kJava;
};

// The locals of the method body visible at a source line, for in-body
// annotations (from the class file's LocalVariableTable, later).
using LocalsAtLine = std::function<std::vector<std::pair<std::string, Type>>(int line)>;

// Builds the context of a method declared in `env`'s sources.
absl::StatusOr<MethodContext> MakeMethodContext(const SourceTypeEnvironment& env,
                                                const TypeDecl& decl, const MethodDecl& method,
                                                const TypeCheckOptions& options = {});
// Builds the context of a method known only through `env` (e.g. a class
// file), with the specification's own name context. `param_names` override
// the MethodInfo's (needed when the class file has none).
absl::StatusOr<MethodContext> MakeMethodContext(
    const TypeEnvironment& env, const std::string& class_name, const std::string& method_name,
    const std::string& descriptor, const std::vector<std::string>& param_names, NameContext names,
    const TypeCheckOptions& options = {});

class TypeChecker {
 public:
  explicit TypeChecker(const TypeEnvironment& env, TypeCheckOptions options = {});

  // A method specification: every spec case, implies_that and for_example.
  absl::StatusOr<TypeCheckResult> CheckMethodSpec(MethodSpec& spec, const MethodContext& ctx) const;

  // Class-level clauses, ghost field initializers, model method
  // specifications and bodies of a declaration from `env`'s sources.
  absl::StatusOr<TypeCheckResult> CheckClassDecl(TypeDecl& decl,
                                                 const SourceTypeEnvironment& env) const;

  // In-body annotations of `ctx`'s method, in source order (ghost locals
  // declared by earlier ones are in scope for later ones).
  absl::StatusOr<TypeCheckResult> CheckBodyAnnotations(std::vector<BodyAnnotation>& annotations,
                                                       const MethodContext& ctx,
                                                       const LocalsAtLine& locals) const;

  // Where a single expression is evaluated.
  enum class Position {
    kPrecondition,   // requires: no \old, no \result
    kPostcondition,  // ensures: \old and \result
    kExceptional,    // signals: \old, no \result
  };
  // One expression (for tools and tests); returns its type.
  absl::StatusOr<Type> CheckExpression(Expr& e, const MethodContext& ctx, Position position) const;

 private:
  const TypeEnvironment& env_;
  TypeCheckOptions options_;
};

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_TYPE_CHECKER_H_
