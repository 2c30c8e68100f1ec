// Internals of the symbolic executor shared by machine.cpp (memory model,
// entry states, observations), executor.cpp (instruction semantics, state
// merging, loop unwinding) and library.cpp (library models). Not a public
// header.
#ifndef TRACESPEC_VALIDATOR_SYMEX_MACHINE_IMPL_H_
#define TRACESPEC_VALIDATOR_SYMEX_MACHINE_IMPL_H_

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "validator/symex/machine.h"

namespace tracespec::symex {

// A symbolic JVM state: path condition, heap and the current frame.
struct State {
  z3::expr guard;
  Heap heap;
  std::vector<Value> locals;
  std::vector<Value> stack;
};

// The merged ways out of a call.
struct CallResult {
  std::optional<ExitState> normal;
  std::optional<ExitState> exceptional;
};

class Machine::Impl {
 public:
  // References below kAllocBase (and above 0) are objects that exist before
  // the execution (inputs and preexisting library objects); allocations
  // count up from kAllocBase.
  static constexpr uint32_t kAllocBase = 0x40000000u;
  // The characters of a string that exists before the execution (an input
  // or a literal) are the char[] at its reference with this bit set: above
  // every other reference, so that they alias nothing else.
  static constexpr uint32_t kStringCharsBit = 0x80000000u;

  explicit Impl(Machine& machine);

  Machine& m;
  z3::context& ctx;
  const Program& program;
  const JavaOps& ops;
  const ExecOptions& options;

  // ---- memory model (machine.cpp) ----
  struct Allocation {
    int type_id = 0;
    std::optional<z3::expr> length;
  };
  z3::expr InitialField(int field_id);
  z3::expr InitialContent(ElemKind kind);
  z3::expr FieldArray(const Heap& heap, int field_id);
  z3::expr ContentArray(const Heap& heap, ElemKind kind);
  // A fresh array for a field or an element kind havocked at a loop head
  // (the induction step): free for every existing object, but an object
  // allocated after it starts with its defaults there too (Allocate), as in
  // the initial heap.
  z3::expr HavocField(int field_id);
  z3::expr HavocContent(ElemKind kind);
  // select with folding through stores to numeral indices, if-then-else
  // terms, and the default contents of allocated objects.
  z3::expr Select(const z3::expr& array, const z3::expr& index);
  z3::expr Store(const z3::expr& array, const z3::expr& index, const z3::expr& value);
  // Typing of an input reference of static type `descriptor` (as an axiom).
  void AddInputTyping(const z3::expr& ref, absl::string_view descriptor);
  // Typing of a reference read from an input array whose runtime type is
  // one of the reference array types.
  void AddElementTyping(const z3::expr& array_ref, const z3::expr& value);
  // Condition "type id term `type` is one of `ids`".
  z3::expr TypeIn(const z3::expr& type, const std::vector<int>& ids) const;
  z3::expr IsInputRef(const z3::expr& ref) const;
  // Allocates a reference of type `type_id`; arrays get `length` and default
  // contents. Exceptions record their creation site for reporting.
  z3::expr Allocate(int type_id, std::optional<z3::expr> length, int origin_site);
  // A preexisting object (string literal, System.out, ...): below kAllocBase.
  z3::expr Preexisting(int type_id);
  z3::expr StringLiteral(const std::string& text);
  // A constant of a class file as the execution reads it
  // (ExecOptions::substitute_numbers/substitute_texts).
  int64_t ConstantNumber(int64_t value) const {
    auto it = options.substitute_numbers.find(value);
    return it == options.substitute_numbers.end() ? value : it->second;
  }
  const std::string& ConstantText(const std::string& text) const {
    auto it = options.substitute_texts.find(text);
    return it == options.substitute_texts.end() ? text : it->second;
  }
  // The char[] of preexisting string `ref` (see kStringCharsBit).
  z3::expr StringChars(const z3::expr& ref) const;
  // "An input of runtime type `type` that is a String has its characters at
  // StringChars(ref), at most L of them" (as an axiom).
  void AddStringTyping(const z3::expr& ref, const z3::expr& type);
  // A string's `value` as read from the heap, with the unwritten slots of
  // preexisting strings replaced by their StringChars.
  z3::expr ResolveStringChars(const z3::expr& chars);
  // "The char[] term `chars` is null" (an opaque string's), false at once
  // for the characters of a preexisting string (StringChars is never null).
  z3::expr CharsNull(const z3::expr& chars) const;
  // A concrete upper bound on the length of the char[] `ref`, when known
  // (allocated with a known length or bound, a preexisting string's).
  std::optional<int> MaxLength(const z3::expr& ref);
  // Upper bounds of arrays whose length is symbolic (library.cpp natives).
  std::unordered_map<uint32_t, int> max_lengths;
  z3::expr ClassLiteral(const std::string& name);
  z3::expr Origin(const z3::expr& ref) const;  // site id term
  uint32_t next_ref() const { return next_ref_; }
  // The objects each static initialiser run allocated, [lo, hi). They are
  // allocations, so no input reference can be one of them — while in a JVM
  // a field or an argument may well hold one (an enum constant). Comparing
  // an input reference with one is therefore unsupported (executor.cpp).
  struct InitializerObjects {
    uint32_t lo = 0, hi = 0;
    std::string class_name;
  };
  std::vector<InitializerObjects> initializer_objects;
  // The constants of the enums CreateEntry initialised before the method's
  // entry (EnumsOfInputs): objects that exist before the execution (below
  // kAllocBase, like inputs), as in a JVM, where a field or an argument can
  // hold a constant only once its enum has been initialised. An input of
  // such an enum's type is null or one of them (EnumConstantsOnly).
  struct EnumConstant {
    uint32_t ref = 0;
    std::string name;  // "RED"
  };
  std::map<std::string, std::vector<EnumConstant>> enum_constants;  // by enum class
  // While set, an object of an enum's class is allocated as a preexisting
  // object (CreateEntry sets it while it initialises the enums).
  bool enum_constants_preexist = false;
  // "`ref`, whose runtime type is the term `type` and one of `ids`, is one
  // of the constants if its type is an enum's of enum_constants".
  z3::expr EnumConstantsOnly(const z3::expr& ref, const z3::expr& type,
                             const std::vector<int>& ids) const;
  // "p.Light$Color.RED" for a constant's reference, else "".
  std::string EnumConstantName(uint32_t ref) const;
  const std::unordered_map<uint32_t, Allocation>& allocations() const { return allocations_; }
  // The element kind of the content array used for arrays of `descriptor`.
  static ElemKind ElemOfArray(absl::string_view array_descriptor);
  // Element read/write for an array reference whose runtime type is only
  // known symbolically: byte and boolean arrays share baload/bastore.
  z3::expr LoadElement(const Heap& heap, const z3::expr& ref, const z3::expr& index,
                       ElemKind kind);
  void StoreElement(Heap& heap, const z3::expr& ref, const z3::expr& index, ElemKind kind,
                    const z3::expr& value);
  z3::expr ByteArrayIsBoolean(const z3::expr& ref) const;
  z3::expr HashCode(const z3::expr& ref) const;

  int fresh_counter = 0;
  z3::expr FreshConst(const std::string& name, const z3::sort& sort);

  // ---- execution (executor.cpp) ----
  int SiteOf(const MethodInfo& method, uint32_t pc);
  void AddObligation(ObligationKind kind, const z3::expr& condition, int site,
                     std::string detail);
  // Runs `method` with `entry` (its locals already hold the arguments).
  absl::StatusOr<CallResult> RunMethod(const MethodInfo& method, State entry);
  // Calls a method (inlined, intercepted or modelled) from a call site.
  absl::StatusOr<CallResult> Call(const CallTarget& target, const State& caller, int site,
                                  const std::vector<Value>& args, bool has_receiver);
  // Class initialisation (JVM spec §5.5), path-sensitive; returns the state
  // after it, or nullopt when every path ends inside it.
  absl::StatusOr<std::optional<State>> Initialize(State state, const ClassInfo& cls, int site);
  bool IsInitializedInitially(const ClassInfo& cls) const;
  // An exception object of class `name` raised at `site` under `guard`.
  ExitState Raise(const z3::expr& guard, const Heap& heap, const std::string& name, int site);
  ExitState MergeExits(std::vector<ExitState> exits);
  State MergeStates(std::vector<State> states);
  absl::Status CheckDeadline();

  CallInterceptor* interceptor = nullptr;
  LoopHeadObserver* loop_observer = nullptr;
  PointObserver* point_observer = nullptr;
  std::vector<const MethodInfo*> call_stack;
  std::vector<Obligation>* obligations = nullptr;
  long steps = 0;

  // ---- library models (library.cpp) ----
  absl::StatusOr<CallResult> CallLibrary(const std::string& key, const State& caller, int site,
                                         const std::vector<Value>& args);
  std::optional<Value> LibraryStatic(const FieldInfo& field);
  // First reference of a block of `count` preexisting cached box objects.
  z3::expr BoxCacheBase(const std::string& owner, int count);

  // The lengths the bound L constrains, by the AST id of the array term
  // (an input array, or the char[] of an input string): the condition
  // under which that length exceeds L, which only the bound's axiom
  // excludes.
  struct BoundedLength {
    bool string_chars = false;
    z3::expr beyond;
  };
  // Adds "length of `array` <= L where `condition` holds" as an axiom of
  // its own (Machine::AxiomsWithoutLengthBounds leaves it out).
  void AddLengthBound(const z3::expr& array, bool string_chars, const z3::expr& condition);
  std::map<unsigned, BoundedLength> bounded_lengths;
  // Whether the execution or a specification read the length of an array,
  // or of a string's characters, that may be an input's (ArrayLength of a
  // term that is no known object). Machine::LengthsBeyondBound asks about
  // a kind only when one was read: a method that never reads one (it
  // compares references, passes them on) behaves the same for longer
  // inputs. Per kind, not per term: the terms read are often built
  // differently from the typed ones (merged references), and claiming a
  // cut too often is safe, missing one is not.
  bool array_length_read = false;
  bool string_length_read = false;

  void AddAxiom(const z3::expr& axiom) { m.axioms_.push_back(axiom); }
  void AddInput(InputEvent event) { m.inputs_.push_back(std::move(event)); }
  void AddTrace(TraceEvent event) { m.trace_.push_back(std::move(event)); }

 private:
  z3::expr types_init_;
  z3::expr lengths_init_;
  z3::expr origin_init_;
  z3::func_decl hash_;
  std::map<int, z3::expr> field_init_;
  std::map<int, z3::expr> content_init_;
  // Initial arrays -> the default value of an allocated object's slot.
  std::unordered_map<unsigned, z3::expr> init_defaults_;
  // Havocked arrays -> that default and the first reference allocated after
  // the havoc (older objects' slots stay free).
  struct HavocDefault {
    z3::expr value;
    uint32_t from;
  };
  std::unordered_map<unsigned, HavocDefault> havoc_defaults_;
  std::map<int, std::vector<z3::expr>> havoc_fields_;    // by field id
  std::map<int, std::vector<z3::expr>> havoc_contents_;  // by ElemKind
  // A fresh array like `init`, kept in `havocked` for Allocate.
  z3::expr Havoc(const z3::expr& init, std::vector<z3::expr>& havocked, const std::string& name);
  z3::expr SelectRec(const z3::expr& array, const z3::expr& index,
                     std::unordered_map<unsigned, z3::expr>& memo, int& budget);
  std::unordered_map<uint32_t, Allocation> allocations_;
  std::unordered_map<uint32_t, int> preexisting_;
  std::map<std::string, z3::expr> string_literals_;
  std::map<std::string, z3::expr> class_literals_;
  std::map<std::string, z3::expr> library_statics_;
  std::map<std::string, z3::expr> box_caches_;
  std::map<std::pair<const MethodInfo*, uint32_t>, int> site_ids_;
  uint32_t next_ref_ = kAllocBase;
  uint32_t next_preexisting_ = kAllocBase - 1;
  friend class Machine;
};

// Library methods listed as modelled but without a model (for tests).
std::vector<std::string> LibraryKeysWithoutModel();

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_MACHINE_IMPL_H_
