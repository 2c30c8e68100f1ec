// The closed world the symbolic executor works in: every class on the class
// path plus built-in models of the java.lang classes such code uses, the
// concrete runtime types (classes and array types) numbered as type ids,
// fields numbered for the heap, and method resolution and dynamic dispatch
// (JVM spec §5.4.3, §6.5 invokevirtual). No Z3 here. Not thread-safe: type
// queries are cached.
#ifndef TRACESPEC_VALIDATOR_SYMEX_PROGRAM_H_
#define TRACESPEC_VALIDATOR_SYMEX_PROGRAM_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/class_path.h"
#include "validator/classfile/descriptors.h"
#include "validator/jdk/jdk_models.h"

namespace tracespec::symex {

// How a value of a field descriptor or array component is stored in the heap.
enum class ElemKind : uint8_t { kBoolean, kByte, kChar, kShort, kInt, kLong, kFloat, kDouble, kRef };
ElemKind ElemKindOf(absl::string_view descriptor);

struct ClassInfo;

struct FieldInfo {
  int id = 0;              // dense, 0-based
  std::string owner;       // declaring class (internal name)
  std::string name;
  std::string descriptor;
  bool is_static = false;
  bool is_final = false;
  bool is_synthetic = false;
  const classfile::Field* decl = nullptr;          // null for library fields
  const classfile::ClassFile* owner_file = nullptr;
  ElemKind kind() const { return ElemKindOf(descriptor); }
  // "pkg.C.name"
  std::string DisplayName() const;
};

struct MethodInfo {
  const ClassInfo* owner = nullptr;
  const classfile::Method* method = nullptr;  // the class-file method
  std::string name;
  std::string descriptor;
  classfile::MethodDescriptor signature;
  bool is_static() const { return method->is_static(); }
  bool has_code() const { return method->code.has_value(); }
  const classfile::Code& code() const { return *method->code; }
  // "pkg.C.name(int,long)"
  std::string DisplayName() const;
  // Source file of the owner ("Main.java"), or the class's simple name.
  std::string SourceFile() const;
};

struct ClassInfo {
  enum class Origin { kClassPath, kLibrary, kMissing };
  std::string name;  // internal form
  std::string super_name;
  std::vector<std::string> interfaces;
  Origin origin = Origin::kClassPath;
  // A Java model of a JDK class (validator/jdk/): bytecode from the
  // embedded models, executed like class-path code; never instantiated.
  bool is_jdk_model = false;
  const classfile::ClassFile* file = nullptr;
  bool is_interface = false;
  bool is_abstract = false;
  // Library classes only: methods not listed in the library models are
  // unknown (they may override anything), so dispatch stops here.
  bool closed = false;
  // Library classes that exist but cannot be instantiated (Math, System).
  bool no_instances = false;
  std::vector<const FieldInfo*> fields;  // declared here, instance and static
  std::vector<std::unique_ptr<MethodInfo>> methods;  // class-path classes only
  int type_id = 0;  // 0 unless instantiable
  bool has_clinit = false;
  bool needs_initialization = false;  // has <clinit> or static fields
  bool is_library() const { return origin == Origin::kLibrary; }
  bool is_missing() const { return origin == Origin::kMissing; }
  // "pkg.C"; for a Java model, the JDK class it stands for ("java.util.Arrays").
  std::string binary_name() const {
    return classfile::InternalToBinary(is_jdk_model ? jdk::JdkClassOfModel(name) : name);
  }
};

// One concrete runtime type.
struct TypeInfo {
  int id = 0;
  std::string name;       // "pkg/C" for classes, "[I" / "[Lpkg/C;" for arrays
  bool is_array = false;
  std::string component;  // arrays: component descriptor ("I", "Lpkg/C;", "[I")
  ElemKind elem = ElemKind::kRef;  // arrays: how elements are stored
  const ClassInfo* cls = nullptr;  // classes
  bool opaque = false;    // a class missing from the class path
  // "pkg.C" or "int[]"
  std::string DisplayName() const;
};

// The outcome of resolving or selecting a method.
struct CallTarget {
  enum class Kind { kBytecode, kLibrary, kUnsupported };
  Kind kind = Kind::kUnsupported;
  const MethodInfo* method = nullptr;  // kBytecode
  std::string library_key;             // kLibrary: "java/lang/Math.abs(I)I"
  std::string reason;                  // kUnsupported
};

// A set of receiver types that select the same target.
struct DispatchCase {
  CallTarget target;
  std::vector<int> type_ids;
};

class Program;

// Whether `cls` is an enum class of the class path (a direct subclass of
// java.lang.Enum with ACC_ENUM; the classes of constants with bodies are
// its subclasses).
bool IsEnumClass(const ClassInfo* cls);
// Its constants (static fields with ACC_ENUM) in declaration order.
std::vector<const FieldInfo*> EnumConstants(const Program& program, const ClassInfo& cls);

class Program {
 public:
  // Loads every class of `class_path` and builds the type universe. A class
  // file that cannot be read (malformed, or declaring another name) is set
  // aside, not an error: the JVM could never load it either, so it has no
  // instances and cannot take part in dispatch. Code that names it sees a
  // missing class (opaque; a use is undecided, the reason naming the file's
  // error), and NeededClass() makes it an error where it is needed outright.
  static absl::StatusOr<std::unique_ptr<Program>> Load(classfile::ClassPath class_path);

  // The error that kept class `internal_name` (or a supertype of it) out of
  // the program, else OK: call it on a class a check cannot do without (the
  // class of the method under check).
  absl::Status NeededClass(absl::string_view internal_name) const;
  // "class pkg.C is not on the class path", or "class pkg.C cannot be loaded
  // (FILE: offset N: ...)" for a class file set aside at loading. A JDK
  // class is never looked for on the class path: one the program lacks has
  // no model, "class java.util.ArrayList is not modelled by the validator".
  std::string AbsentClass(absl::string_view internal_name) const;
  // Whether `internal_name` ("java/util/ArrayList") belongs to the Java
  // platform, whose classes come from models, never from the class path.
  static bool IsJdkClass(absl::string_view internal_name);
  // Why a call of the JDK method owner.name(descriptor) is cut: "call of
  // java.util.ArrayList.add(java.lang.Object) is not modelled by the
  // validator" ("constructor java.util.ArrayList(int) is not modelled ..."
  // for "<init>").
  static std::string NotModelledCall(absl::string_view owner, absl::string_view name,
                                     absl::string_view descriptor);

  // Any class the program knows about (class path, library model, or a name
  // referenced but missing); nullptr for names never seen.
  const ClassInfo* FindClass(absl::string_view internal_name) const;
  // A method declared in `cls` with this name and descriptor.
  const MethodInfo* FindDeclaredMethod(const ClassInfo* cls, absl::string_view name,
                                       absl::string_view descriptor) const;
  // Methods of class-path classes named `name` in class `cls` (any descriptor).
  std::vector<const MethodInfo*> FindMethodsByName(const ClassInfo* cls,
                                                   absl::string_view name) const;

  int type_count() const { return static_cast<int>(types_.size()); }  // ids 1..count
  const TypeInfo& Type(int id) const { return types_[id - 1]; }
  // Type id of a concrete class ("pkg/C") or array type ("[I"); 0 if none.
  int TypeIdOf(absl::string_view name) const;
  // Concrete types assignable to `type` (a class internal name or an array
  // descriptor). Opaque (missing) classes are included only when `type` is
  // itself that class.
  std::vector<int> ConcreteSubtypes(absl::string_view type) const;
  // Ids of the opaque types (missing classes referenced by the program).
  const std::vector<int>& OpaqueTypes() const { return opaque_types_; }
  // Whether a value of runtime type `from` is assignable to `to` (JVM spec
  // §6.5 checkcast rules). Both are class internal names or array
  // descriptors.
  bool IsAssignable(absl::string_view from, absl::string_view to) const;
  // Whether the supertypes of `type` are all known (no missing class on the
  // way up), so IsAssignable gives exact answers for it.
  bool HierarchyKnown(absl::string_view type) const;

  int field_count() const { return static_cast<int>(fields_.size()); }
  const FieldInfo& Field(int id) const { return *fields_[id]; }
  // Field resolution (JVM spec §5.4.3.2) starting at class `owner`.
  const FieldInfo* ResolveField(absl::string_view owner, absl::string_view name,
                                absl::string_view descriptor) const;
  // All instance fields of objects of class `cls`, inherited ones included,
  // sorted by (declaring class, name).
  std::vector<const FieldInfo*> InstanceFields(const ClassInfo* cls) const;
  std::vector<const FieldInfo*> StaticFields(const ClassInfo* cls) const;

  // invokestatic / invokespecial resolution. `caller` is the class of the
  // calling method (for invokespecial on a superclass method).
  CallTarget ResolveStatic(absl::string_view owner, absl::string_view name,
                           absl::string_view descriptor) const;
  CallTarget ResolveSpecial(absl::string_view owner, absl::string_view name,
                            absl::string_view descriptor) const;
  // invokevirtual / invokeinterface: the receiver's possible runtime types
  // (concrete subtypes of `owner`) grouped by the method each selects.
  std::vector<DispatchCase> Dispatch(absl::string_view owner, absl::string_view name,
                                     absl::string_view descriptor) const;
  // Method selection for one runtime type.
  CallTarget Select(int type_id, absl::string_view name, absl::string_view descriptor) const;

  // Whether `cls` is Throwable or a subclass.
  bool IsThrowable(const ClassInfo* cls) const;
  // Superclass chain starting at `cls` (inclusive), stopping at a missing class.
  std::vector<const ClassInfo*> SuperChain(const ClassInfo* cls) const;

  classfile::ClassPath& class_path() { return class_path_; }

 private:
  Program() = default;
  absl::Status Build();
  void AddLibraryClasses();
  ClassInfo* AddClass(std::unique_ptr<ClassInfo> cls);
  void NoteReferencedName(const std::string& name);
  void NoteDescriptor(absl::string_view descriptor);
  void AssignTypeIds();
  bool IsSubclassOrImplements(const ClassInfo* cls, absl::string_view target) const;
  bool IsAssignableUncached(absl::string_view from, absl::string_view to) const;
  CallTarget SelectInClass(const ClassInfo* start, absl::string_view name,
                           absl::string_view descriptor) const;
  FieldInfo* AddField(const std::string& owner, const std::string& name,
                      const std::string& descriptor, bool is_static, bool is_final);

  absl::Status LoadClasses(classfile::ClassPath& path, bool jdk_models,
                           std::vector<ClassInfo*>* loaded);
  // The Java model of the JDK method owner.name(descriptor), when the table
  // (validator/jdk/jdk_models.h) says it has one.
  std::optional<CallTarget> JdkModel(absl::string_view owner, absl::string_view name,
                                     absl::string_view descriptor) const;
  CallTarget MissingClass(absl::string_view owner, absl::string_view name,
                          absl::string_view descriptor, absl::string_view missing) const;

  classfile::ClassPath class_path_;
  classfile::ClassPath jdk_models_;  // the embedded Java models of JDK classes
  std::map<std::string, std::unique_ptr<ClassInfo>> classes_;
  std::vector<std::unique_ptr<FieldInfo>> fields_;
  std::vector<TypeInfo> types_;
  std::map<std::string, int> type_ids_;
  std::vector<int> opaque_types_;
  std::vector<std::string> array_types_;  // collected during loading
  std::map<std::string, absl::Status> unreadable_;  // class files set aside
  mutable std::map<std::string, std::vector<int>> subtypes_cache_;
  mutable std::map<std::pair<std::string, std::string>, bool> assignable_cache_;
};

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_PROGRAM_H_
