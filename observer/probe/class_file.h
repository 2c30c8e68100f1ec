// A minimal class-file reader/writer for the probe: just enough of JVMS §4 to
// add entry/exit hooks to chosen methods while a class is being loaded
// (JVMTI ClassFileLoadHook). Two rewrites are offered:
//  - AddWrapper: the method's body moves, unchanged, into a private
//    synthetic method; a new method with the original name, descriptor, flags
//    and annotations passes the arguments to the hooks, calls the body, and
//    reports the return value or the exception. Nothing inside the original
//    code moves, so no offset needs fixing.
//  - InsertPrologue: for constructors and interface methods, where a wrapper
//    cannot be written, a short call sequence reporting the arguments is put
//    in front of the existing code; every code offset shifts by the same
//    multiple of four (switch padding stays valid) and the tables that hold
//    offsets (exceptions, stack maps, line and local-variable tables) are
//    shifted with it. The exit of such methods is seen through JVMTI.
// And two for the substituted run of `observe --noninterference`:
//  - RedirectFieldReads: chosen getfield/getstatic instructions become
//    invokestatic calls of the same length and stack effect to accessors
//    added to the class; nothing moves either.
//  - ReplaceConstant: a String, Integer or Long constant of the pool gets
//    another value (what every ldc of it loads); no code changes.
//  - ReplaceConcatRecipe: a string concatenation's recipe (a bootstrap
//    argument) gets another text; the code and any ldc stay as they were.
// Pure C++ (no JNI), so it is unit-tested on its own.
#ifndef TRACESPEC_OBSERVER_PROBE_CLASS_FILE_H_
#define TRACESPEC_OBSERVER_PROBE_CLASS_FILE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracespec::probe {

// Access flags used here (JVMS §4.1, §4.6).
enum : uint16_t {
  kAccPublic = 0x0001,
  kAccPrivate = 0x0002,
  kAccProtected = 0x0004,
  kAccStatic = 0x0008,
  kAccFinal = 0x0010,
  kAccSynchronized = 0x0020,
  kAccBridge = 0x0040,
  kAccVarargs = 0x0080,
  kAccNative = 0x0100,
  kAccInterface = 0x0200,
  kAccAbstract = 0x0400,
  kAccStrict = 0x0800,
  kAccSynthetic = 0x1000,
};

// The parameter and return types of a JVM method descriptor.
struct MethodType {
  // One field descriptor per parameter ("I", "J", "[I", "Ljava/lang/String;").
  std::vector<std::string> params;
  // Return descriptor ("V" for void).
  std::string ret;
  // Local-variable slots the parameters take (long/double count two).
  int ParamSlots() const;
};

// Parses "(I[JLjava/lang/String;)V"; false when malformed.
bool ParseMethodDescriptor(std::string_view descriptor, MethodType* out);

// The JVM type kind of a field descriptor: its first character, with arrays
// and classes both reported as 'L' (a reference).
char KindOf(std::string_view field_descriptor);

struct Attribute {
  uint16_t name_index = 0;
  std::string data;
};

struct Method {
  uint16_t access = 0;
  uint16_t name_index = 0;
  uint16_t descriptor_index = 0;
  std::vector<Attribute> attributes;
};

// What the rewriter needs to know about a method before touching it.
struct MethodFacts {
  std::string name;
  std::string descriptor;
  uint16_t access = 0;
  bool has_code = false;
  // From MethodParameters, else from a LocalVariableTable entry that starts
  // at offset 0; "" where the class file does not say.
  std::vector<std::string> param_names;
};

// A field read (getfield or getstatic) as its instruction names it.
struct FieldRead {
  // Internal name of the class the Fieldref names (the field may be
  // declared by a superclass of it).
  std::string owner;
  std::string name;
  std::string descriptor;
  bool is_static = false;
};

// A constant of the pool a program loads as a value (ldc, ldc_w, ldc2_w):
// a String, Integer or Long entry.
struct PoolConstant {
  uint16_t index = 0;
  // 'S' (String), 'I' (Integer) or 'J' (Long).
  char kind = 'S';
  // 'S': the text as the class file holds it (modified UTF-8).
  std::string text;
  // 'I', 'J': the value.
  int64_t value = 0;
};

class ClassFile {
 public:
  // Parses `data`; on failure returns false and sets *error (no class data
  // in the message).
  bool Parse(const uint8_t* data, size_t size, std::string* error);

  // Internal name of this class ("pkg/Name").
  const std::string& name() const { return name_; }
  bool is_interface() const { return (access_ & kAccInterface) != 0; }
  uint16_t major_version() const { return major_; }
  int method_count() const { return static_cast<int>(methods_.size()); }
  MethodFacts Facts(int method_index) const;

  // Moves method `method_index`'s body into a private synthetic method and
  // gives the original name a hooked wrapper (see the file comment). Not for
  // constructors, static initializers, abstract/native methods or
  // interfaces.
  bool AddWrapper(int method_index, int hook_id, std::string* error);

  // Puts the argument-reporting prologue in front of method `method_index`'s
  // code. The receiver is passed for instance methods other than
  // constructors.
  bool InsertPrologue(int method_index, int hook_id, std::string* error);

  // Routes chosen field reads through the hooks class: each getfield or
  // getstatic for which `hook_id` returns an id (>= 0; -1 leaves it)
  // becomes an invokestatic of a static synthetic accessor added to this
  // class (one per Fieldref), which calls the hooks' readDenied(receiver or
  // null, the Fieldref's class, id) and then reads the field with the
  // original instruction. Same length, same stack effect, so no offset,
  // stack map or handler changes, and the read keeps its access context
  // (a private or protected field reads as before). Sets *rewritten to
  // the instructions changed. False with *error when a read is chosen but
  // cannot be redirected: a class file older than version 49 (no class
  // constants) or an interface older than 52 (no static methods); the
  // class is then left as it was.
  bool RedirectFieldReads(const std::function<int(const FieldRead&)>& hook_id, int* rewritten,
                          std::string* error);

  // The String, Integer and Long constants of the pool, by index.
  std::vector<PoolConstant> LoadableConstants() const;
  // Gives constant `replacement.index` (one of LoadableConstants, same
  // kind) the value of `replacement`: a String entry is pointed at a new
  // Utf8 entry (the old one may also be a name), an Integer or Long entry
  // is overwritten. False when the index is not such a constant or the
  // pool is full; the class is then left as it was.
  bool ReplaceConstant(const PoolConstant& replacement);

  // The recipes of the class's string concatenations (javac 9 and later;
  // observer/probe/concat_recipe.h): the String entries that are the
  // recipe argument of a StringConcatFactory.makeConcatWithConstants
  // bootstrap method, each once, in the order of the BootstrapMethods
  // attribute.
  std::vector<PoolConstant> ConcatRecipes() const;
  // Gives recipe `replacement.index` (one of ConcatRecipes) the text of
  // `replacement` in every such bootstrap method naming it: the argument
  // is pointed at a new String entry, so that an ldc of the old entry, and
  // any other use of its Utf8 entry, keeps the old text. False when the
  // index is not such a recipe or the pool is full.
  bool ReplaceConcatRecipe(const PoolConstant& replacement);

  // The operands of the class's sipush instructions (16-bit values held
  // in the code, not the pool), in the order of methods and code.
  std::vector<int16_t> ShortImmediates() const;
  // Gives every sipush whose operand `replace` maps to a value that value
  // (in place: no offset moves); returns how many changed, -1 when a
  // method's code is malformed (the class is then left as it was).
  int ReplaceShortImmediates(const std::function<std::optional<int16_t>(int16_t)>& replace);

  // The class file with every change applied.
  std::string Serialize() const;

 private:
  struct Code {
    uint16_t max_stack = 0;
    uint16_t max_locals = 0;
    std::string code;
    struct Handler {
      uint16_t start, end, handler, catch_type;
    };
    std::vector<Handler> handlers;
    std::vector<Attribute> attributes;
  };

  const std::string& Utf8(uint16_t index) const;
  int FindAttribute(const std::vector<Attribute>& attributes, std::string_view name) const;
  bool DecodeCode(const Attribute& attribute, Code* out) const;
  std::string EncodeCode(const Code& code) const;
  bool ShiftStackMapTable(std::string* data, uint32_t shift, std::string* error) const;
  // Whether MethodHandle entry `method_handle` names
  // StringConcatFactory.makeConcatWithConstants.
  bool IsConcatBootstrap(uint16_t method_handle) const;
  // The offsets, in the BootstrapMethods attribute's data, of the recipe
  // arguments (String entries) of such bootstrap methods; none when the
  // attribute is malformed.
  std::vector<size_t> RecipeArgumentOffsets() const;

  // Constant-pool additions (appended after the original entries).
  uint16_t AddEntry(const std::string& key, const std::string& bytes, int slots = 1);
  uint16_t AddUtf8(std::string_view text);
  uint16_t AddClass(std::string_view internal_name);
  uint16_t AddNameAndType(std::string_view name, std::string_view descriptor);
  uint16_t AddMethodref(std::string_view owner, std::string_view name, std::string_view descriptor,
                        bool interface_owner = false);
  uint16_t AddInteger(int32_t value);

  // Emits "pass each parameter to its arg hook, then call `enter_name`".
  void EmitArgumentHooks(const MethodType& type, bool is_static, bool pass_receiver, int hook_id,
                         const char* enter_name, std::string* code);

  uint16_t minor_ = 0;
  uint16_t major_ = 0;
  uint16_t access_ = 0;
  std::string name_;
  // The original constant pool, verbatim, and what was learnt from it.
  std::string pool_bytes_;
  uint16_t pool_count_ = 0;
  std::vector<uint8_t> pool_tags_;
  std::map<uint16_t, std::string> utf8_;
  // Class entries → their name's Utf8 entry; Fieldref entries → (class,
  // name-and-type); NameAndType entries → (name, descriptor).
  std::map<uint16_t, uint16_t> class_names_;
  std::map<uint16_t, std::pair<uint16_t, uint16_t>> fieldrefs_;
  std::map<uint16_t, std::pair<uint16_t, uint16_t>> name_and_types_;
  // Methodref entries → (class, name-and-type); MethodHandle entries → the
  // entry they reference.
  std::map<uint16_t, std::pair<uint16_t, uint16_t>> methodrefs_;
  std::map<uint16_t, uint16_t> method_handles_;
  // String, Integer and Long entries → the offset in pool_bytes_ of what
  // follows their tag (a String's Utf8 index, a number's bytes).
  std::map<uint16_t, size_t> constant_offsets_;
  // Everything between the constant pool and the methods (access flags,
  // this/super, interfaces, fields), verbatim.
  std::string middle_;
  std::vector<Method> methods_;
  std::vector<Attribute> attributes_;
  // Added entries, in order, and a key → index map to share them.
  std::string added_bytes_;
  uint16_t next_index_ = 0;
  std::map<std::string, uint16_t> added_;
  // Set when the additions would overflow the 65535-entry constant pool.
  bool pool_full_ = false;
};

}  // namespace tracespec::probe

#endif  // TRACESPEC_OBSERVER_PROBE_CLASS_FILE_H_
