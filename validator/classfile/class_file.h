// The in-memory form of a Java class file (JVM spec §4): constant pool,
// fields, methods with their decoded Code, and the attributes the validator
// needs (line numbers, local variable names, bootstrap methods). A ClassFile
// is produced by ParseClassFile, which checks every index and offset, so the
// rest of the validator can use it without re-checking.
#ifndef TRACESPEC_VALIDATOR_CLASSFILE_CLASS_FILE_H_
#define TRACESPEC_VALIDATOR_CLASSFILE_CLASS_FILE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "validator/classfile/instructions.h"

namespace tracespec::classfile {

// Constant-pool tags (JVM spec §4.4).
enum class CpTag : uint8_t {
  kUnused = 0,  // index 0 and the slot after a long/double
  kUtf8 = 1,
  kInteger = 3,
  kFloat = 4,
  kLong = 5,
  kDouble = 6,
  kClass = 7,
  kString = 8,
  kFieldref = 9,
  kMethodref = 10,
  kInterfaceMethodref = 11,
  kNameAndType = 12,
  kMethodHandle = 15,
  kMethodType = 16,
  kDynamic = 17,
  kInvokeDynamic = 18,
  kModule = 19,
  kPackage = 20,
};

// One constant-pool entry. Which members are meaningful depends on `tag`:
//   kUtf8: text (decoded from modified UTF-8 to UTF-8)
//   kInteger/kFloat: bits32; kLong/kDouble: bits64 (raw IEEE bits for floats)
//   kClass/kString/kMethodType/kModule/kPackage: index1 (a kUtf8)
//   kFieldref/kMethodref/kInterfaceMethodref: index1 class, index2 name&type
//   kNameAndType: index1 name, index2 descriptor
//   kMethodHandle: kind, index1 reference
//   kDynamic/kInvokeDynamic: index1 bootstrap method, index2 name&type
struct CpEntry {
  CpTag tag = CpTag::kUnused;
  std::string text;
  uint32_t bits32 = 0;
  uint64_t bits64 = 0;
  uint16_t index1 = 0;
  uint16_t index2 = 0;
  uint8_t kind = 0;
};

// A resolved symbolic reference to a field or method.
struct MemberRef {
  std::string class_name;  // internal form, "pkg/Name" (or an array descriptor)
  std::string name;
  std::string descriptor;
  bool is_interface = false;  // InterfaceMethodref
};

class ConstantPool {
 public:
  ConstantPool() = default;
  explicit ConstantPool(std::vector<CpEntry> entries) : entries_(std::move(entries)) {}

  size_t size() const { return entries_.size(); }
  // The entry at `index`; index 0 and out-of-range indices give an unused entry.
  const CpEntry& at(size_t index) const;
  CpTag tag(size_t index) const { return at(index).tag; }

  // Accessors for entries whose tags ParseClassFile has already checked.
  const std::string& Utf8(size_t index) const { return at(index).text; }
  // Internal name of a CONSTANT_Class ("pkg/Name" or "[I").
  const std::string& ClassName(size_t index) const { return Utf8(at(index).index1); }
  const std::string& StringValue(size_t index) const { return Utf8(at(index).index1); }
  // Field, method or interface-method reference.
  MemberRef Member(size_t index) const;
  // Name and descriptor of a CONSTANT_NameAndType.
  std::pair<std::string, std::string> NameAndType(size_t index) const;

 private:
  std::vector<CpEntry> entries_;
};

// Access flags (JVM spec tables 4.1-B, 4.5-A, 4.6-A).
enum AccessFlag : uint16_t {
  kAccPublic = 0x0001,
  kAccPrivate = 0x0002,
  kAccProtected = 0x0004,
  kAccStatic = 0x0008,
  kAccFinal = 0x0010,
  kAccSynchronized = 0x0020,  // methods; kAccSuper on classes
  kAccVolatile = 0x0040,      // fields; kAccBridge on methods
  kAccTransient = 0x0080,     // fields; kAccVarargs on methods
  kAccNative = 0x0100,
  kAccInterface = 0x0200,
  kAccAbstract = 0x0400,
  kAccStrict = 0x0800,
  kAccSynthetic = 0x1000,
  kAccAnnotation = 0x2000,
  kAccEnum = 0x4000,
};

struct ExceptionHandler {
  uint32_t start_pc = 0;  // inclusive
  uint32_t end_pc = 0;    // exclusive
  uint32_t handler_pc = 0;
  // Internal name of the caught class; empty for `finally` (catches all).
  std::string catch_type;
};

struct LineNumber {
  uint32_t start_pc = 0;
  uint32_t line = 0;
};

struct LocalVariable {
  uint32_t start_pc = 0;
  uint32_t length = 0;
  std::string name;
  std::string descriptor;
  uint16_t slot = 0;
};

struct Code {
  uint16_t max_stack = 0;
  uint16_t max_locals = 0;
  std::vector<uint8_t> bytes;
  // Byte offset of the first code byte within the class file (for errors).
  uint64_t file_offset = 0;
  std::vector<Instruction> instructions;  // decoded, in pc order
  std::vector<ExceptionHandler> handlers;  // in table order (first match wins)
  std::vector<LineNumber> lines;           // sorted by start_pc
  std::vector<LocalVariable> locals;

  // Index into `instructions` of the instruction at `pc`, or -1.
  int IndexOfPc(uint32_t pc) const;
  // Source line of the instruction at `pc`; 0 when unknown.
  uint32_t LineOf(uint32_t pc) const;
  // Where control may go from `ins` other than to the next instruction:
  // its jump and switch targets and the handlers whose range covers it.
  std::vector<uint32_t> Successors(const Instruction& ins) const;
  // The loops: each back-edge target (a successor at or before its
  // source, the loop's head) -> the largest offset that jumps back to it.
  std::map<uint32_t, uint32_t> LoopRanges() const;
};

struct Field {
  uint16_t access = 0;
  std::string name;
  std::string descriptor;
  // ConstantValue attribute: a constant-pool index, 0 when absent.
  uint16_t constant_value_index = 0;
  bool is_static() const { return (access & kAccStatic) != 0; }
  bool is_final() const { return (access & kAccFinal) != 0; }
};

struct Method {
  uint16_t access = 0;
  std::string name;
  std::string descriptor;
  std::optional<Code> code;  // absent for abstract and native methods
  // From MethodParameters; empty when the attribute is absent.
  std::vector<std::string> parameter_names;
  bool is_static() const { return (access & kAccStatic) != 0; }
  bool is_abstract() const { return (access & kAccAbstract) != 0; }
  bool is_native() const { return (access & kAccNative) != 0; }
  bool is_private() const { return (access & kAccPrivate) != 0; }
  bool is_public() const { return (access & kAccPublic) != 0; }
};

struct BootstrapMethod {
  uint16_t method_handle_index = 0;  // a CONSTANT_MethodHandle
  std::vector<uint16_t> arguments;   // loadable constant-pool indices
};

struct ClassFile {
  // Where the class came from ("dir/pkg/A.class" or "lib.jar!pkg/A.class").
  std::string source;
  uint16_t minor_version = 0;
  uint16_t major_version = 0;
  ConstantPool pool;
  uint16_t access = 0;
  std::string name;        // internal form, "pkg/Name"
  std::string super_name;  // empty only for java/lang/Object
  std::vector<std::string> interfaces;
  std::vector<Field> fields;
  std::vector<Method> methods;
  std::vector<BootstrapMethod> bootstrap_methods;
  std::string source_file;  // SourceFile attribute, "" when absent
  // NestHost: the nest's host class (internal name), "" when absent (a
  // top-level class, or a class file older than Java 11).
  std::string nest_host;
  // NestMembers: the classes of the nest this class hosts (internal names,
  // as listed) — the nested, inner, local and anonymous classes javac
  // compiled from the host's source; empty when absent.
  std::vector<std::string> nest_members;
  // InnerClasses (JVMS 4.7.6): this class's own entry, when it is a nested
  // class — its modifiers as the source declares them (`static`,
  // `private`, ...: the class's `access` cannot say those), its simple name
  // ("" for an anonymous class) and the class it is a member of (internal
  // name; "" for a local or anonymous class).
  struct NestedEntry {
    uint16_t access = 0;
    std::string simple_name;
    std::string outer;
  };
  std::optional<NestedEntry> nested;

  bool is_interface() const { return (access & kAccInterface) != 0; }
  bool is_abstract() const { return (access & kAccAbstract) != 0; }
  // The method with this name and descriptor, or nullptr.
  const Method* FindMethod(absl::string_view name, absl::string_view descriptor) const;
  const Field* FindField(absl::string_view name, absl::string_view descriptor) const;
  // Parameter names of `method`: MethodParameters, else LocalVariableTable,
  // else "arg0", "arg1", ...
  std::vector<std::string> ParameterNames(const Method& method) const;
};

// Parses the bytes of one class file. `source` names it in errors, which read
// "<source>: byte <offset>: <problem>". Never crashes on malformed input.
absl::StatusOr<ClassFile> ParseClassFile(absl::string_view bytes, const std::string& source);

// "pkg.Name" <-> "pkg/Name".
std::string BinaryToInternal(absl::string_view binary_name);
std::string InternalToBinary(absl::string_view internal_name);

}  // namespace tracespec::classfile

#endif  // TRACESPEC_VALIDATOR_CLASSFILE_CLASS_FILE_H_
