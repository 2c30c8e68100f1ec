// What the type checker needs to know about classes, behind one interface
// so that it does not depend on where the knowledge comes from.
//
// TypeEnvironment answers one question: the members and supertypes of a
// class named by its binary name. Implementations here:
//   - SourceTypeEnvironment: classes declared in parsed .java/.jml sources
//     (fields with modifiers and types, method headers, ghost/model members,
//     JML modifiers such as pure, spec_public, nullable);
//   - JdkTypeEnvironment(): the few java.lang/java.util classes specs use
//     (Object, String, boxes, Math, the standard exceptions), built in;
//   - ChainedTypeEnvironment: the first of several that knows a class;
//   - OverlayTypeEnvironment: a base (e.g. compiled classes) with the JML
//     members and modifiers of a specification file laid over it.
//
// Seam for the class-file reader (validator/classfile, added later): an
// adapter implements TypeEnvironment::FindClass from decoded .class files:
// binary name, super_name, interfaces, ACC_INTERFACE/ABSTRACT/FINAL; one
// FieldInfo per field (type from the descriptor, ACC_STATIC/FINAL,
// visibility); one MethodInfo per method (descriptor, ACC_STATIC, visibility,
// param_names from MethodParameters or LocalVariableTable when present,
// is_pure when the adapter can establish it). It is then used as the base of
// an OverlayTypeEnvironment whose overlay is the SourceTypeEnvironment of the
// contract's .jml/.java file, and chained before JdkTypeEnvironment().
#ifndef TRACESPEC_VALIDATOR_JML_TYPE_ENV_H_
#define TRACESPEC_VALIDATOR_JML_TYPE_ENV_H_

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "validator/jml/ast.h"
#include "validator/jml/types.h"

namespace tracespec::jml {

enum class Nullity { kUnspecified, kNullable, kNonNull };

// What `nullable`/`non_null` among `mods` say, else `class_default`.
Nullity DeclaredNullity(const Modifiers& mods, Nullity class_default = Nullity::kUnspecified);

struct FieldInfo {
  std::string name;
  Type type;
  bool is_static = false;
  bool is_final = false;
  // A constant of an enum (ACC_ENUM): in observations it is the recorded
  // object of its class whose java.lang.Enum.name is the field's name.
  bool is_enum_constant = false;
  Visibility visibility = Visibility::kPackage;
  bool is_ghost = false;
  bool is_model = false;
  bool spec_public = false;
  bool spec_protected = false;
  Nullity nullity = Nullity::kUnspecified;  // as declared (explicit or by the class default)
};

struct MethodInfo {
  std::string name;        // "<init>" for constructors
  std::string descriptor;  // JVM method descriptor "(I)V"
  std::vector<Type> params;
  Type result;
  std::vector<std::string> param_names;  // empty when unknown
  std::vector<Nullity> param_nullity;    // empty or one per parameter
  Nullity result_nullity = Nullity::kUnspecified;
  bool is_static = false;
  bool is_constructor = false;
  bool is_abstract = false;
  bool is_varargs = false;
  // Declared pure (JML pure/strictly_pure/@Pure, a pure class, a model
  // method) or, for class-file adapters, proven side-effect free.
  bool is_pure = false;
  bool is_model = false;
  Visibility visibility = Visibility::kPackage;
  bool spec_public = false;
  bool spec_protected = false;
  std::vector<std::string> math_modifiers;  // "spec_bigint_math", ... as declared
  std::vector<std::string> exceptions;      // the throws clause (binary names)
};

struct ClassInfo {
  std::string name;        // binary name
  std::string superclass;  // binary name; empty only for java.lang.Object
  std::vector<std::string> interfaces;
  bool is_interface = false;
  bool is_abstract = false;
  bool is_final = false;
  std::vector<FieldInfo> fields;
  std::vector<MethodInfo> methods;
  std::vector<std::string> math_modifiers;  // class-level spec_*_math

  const FieldInfo* FindField(absl::string_view name) const;
  const MethodInfo* FindMethod(absl::string_view name, absl::string_view descriptor) const;
};

class TypeEnvironment {
 public:
  virtual ~TypeEnvironment() = default;
  // The class or interface with JVM binary name `binary_name` (dots between
  // packages, '$' for member classes), or nullptr when unknown. The pointer
  // stays valid as long as the environment.
  virtual const ClassInfo* FindClass(absl::string_view binary_name) const = 0;
};

// ---- Queries over any environment ----

// Reflexive subtyping through superclasses and interfaces; every class is a
// subtype of java.lang.Object. Unknown classes have no supertypes.
bool IsSubclassOf(const TypeEnvironment& env, absl::string_view sub, absl::string_view super);

// Assignment conversion (JLS §5.2) extended with JML's \bigint and \real:
// identity, widening primitive, widening reference (arrays covariant),
// null to any reference, boxing and unboxing.
bool IsAssignable(const TypeEnvironment& env, const Type& from, const Type& to);
// Method invocation conversion; boxing allowed only when `allow_boxing`.
bool IsConvertibleForCall(const TypeEnvironment& env, const Type& from, const Type& to,
                          bool allow_boxing);
// Casting conversion (JLS §5.5) with \bigint/\real among the numeric types.
bool IsCastable(const TypeEnvironment& env, const Type& from, const Type& to);

// A field found in a class or its supertypes.
struct FieldLookup {
  const ClassInfo* owner = nullptr;
  const FieldInfo* field = nullptr;
};
std::optional<FieldLookup> LookupField(const TypeEnvironment& env, absl::string_view class_name,
                                       absl::string_view field_name);

// Methods named `name` declared in a class or inherited, most derived first,
// one per descriptor.
struct MethodLookup {
  const ClassInfo* owner = nullptr;
  const MethodInfo* method = nullptr;
};
std::vector<MethodLookup> LookupMethods(const TypeEnvironment& env, absl::string_view class_name,
                                        absl::string_view name);

// ---- Names ----

// Where a type name is resolved: the package and imports of the file, the
// class the text is in, and the type variables in scope (name -> bounds;
// erased to the first bound, or Object).
struct NameContext {
  std::string package;
  std::vector<ImportDecl> imports;
  std::string enclosing_class;  // binary name; empty for none
  std::map<std::string, std::vector<TypeRef>> type_variables;
};

// Resolves a class name as written ("String", "Map.Entry", "java.util.List")
// to a binary name known to `env`: type variables' erasure, member classes of
// the enclosing classes, single-type imports, the package, on-demand
// imports, java.lang (JLS §6.5.5). nullopt when none is known.
std::optional<std::string> ResolveClassName(const TypeEnvironment& env, const NameContext& ctx,
                                            absl::string_view name);

// Resolves a written type. Unknown class names are an error ("unknown type
// 'Foo'") unless `guess` is set, in which case the most plausible binary
// name is assumed (an import naming it, else the current package) — what a
// descriptor for a header needs when the classpath is not available.
absl::StatusOr<Type> ResolveType(const TypeEnvironment& env, const NameContext& ctx,
                                 const TypeRef& ref, bool guess = false);

// ---- Implementations ----

// Classes declared in parsed compilation units. The units must outlive the
// environment. Declarations are resolved against the units themselves and
// then `fallback` (may be null; typically JdkTypeEnvironment() or a chain
// ending in it); unknown names in declarations are guessed (see
// ResolveType), so that descriptors can be formed without a classpath.
class SourceTypeEnvironment : public TypeEnvironment {
 public:
  SourceTypeEnvironment(std::vector<const CompilationUnit*> units, const TypeEnvironment* fallback);
  const ClassInfo* FindClass(absl::string_view binary_name) const override;

  // The declaration and unit of a class declared in the units.
  const TypeDecl* FindDecl(absl::string_view binary_name) const;
  const CompilationUnit* FindUnit(absl::string_view binary_name) const;
  // Name context inside a type declaration (and inside one of its methods,
  // adding the method's type parameters).
  NameContext ContextFor(const TypeDecl& decl) const;
  NameContext ContextFor(const TypeDecl& decl, const MethodDecl& method) const;
  // The MethodInfo built for a declared method (nullptr if `method` is not
  // a method of `decl`).
  const MethodInfo* InfoFor(const TypeDecl& decl, const MethodDecl& method) const;

 private:
  struct Entry {
    const CompilationUnit* unit = nullptr;
    const TypeDecl* decl = nullptr;
    ClassInfo info;
  };
  void Build(Entry* entry);
  std::map<std::string, std::unique_ptr<Entry>, std::less<>> classes_;
  const TypeEnvironment* fallback_;
};

// java.lang.Object, String, Class, the box classes, Number, Math,
// Character, CharSequence, Comparable, Iterable, Cloneable, Serializable,
// Enum, Record, Throwable and the standard exceptions and errors. Every
// method listed is pure; the checker must model each call it accepts or
// report it as unsupported.
const TypeEnvironment& JdkTypeEnvironment();

// The first layer that knows a class answers.
class ChainedTypeEnvironment : public TypeEnvironment {
 public:
  explicit ChainedTypeEnvironment(std::vector<const TypeEnvironment*> layers)
      : layers_(std::move(layers)) {}
  const ClassInfo* FindClass(absl::string_view binary_name) const override;

 private:
  std::vector<const TypeEnvironment*> layers_;
};

// `base` (the truth about compiled classes) with `overlay` (a specification
// source) merged in: overlay-only fields and methods are added (ghost and
// model members), and for members in both, the overlay's JML attributes
// (pure, spec_public/spec_protected, nullity, parameter names when the base
// has none) are copied onto the base's. Types and descriptors come from the
// base. Thread-safe.
class OverlayTypeEnvironment : public TypeEnvironment {
 public:
  OverlayTypeEnvironment(const TypeEnvironment& base, const TypeEnvironment& overlay)
      : base_(base), overlay_(overlay) {}
  const ClassInfo* FindClass(absl::string_view binary_name) const override;

 private:
  const TypeEnvironment& base_;
  const TypeEnvironment& overlay_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::unique_ptr<ClassInfo>, std::less<>> merged_;
};

}  // namespace tracespec::jml

#endif  // TRACESPEC_VALIDATOR_JML_TYPE_ENV_H_
