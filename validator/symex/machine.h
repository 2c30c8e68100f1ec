// The symbolic executor: runs decoded bytecode on Z3 terms, BMC style — one
// pass over each method in bytecode order, forking at branches and merging
// the states that meet at a join (the path condition becomes a disjunction,
// values become if-then-else terms), loops unwound to a bound, calls inlined.
// No solver is called during execution; the caller decides what to ask.
//
// This is the API the JML checks (validator/check) and the protocol explorer
// build on. It exposes Z3 types and is meant for validator/ code only; the
// public face of the validator hides it. The memory model and the meaning of
// every result are documented in validator/README.md.
//
// Typical use:
//   z3::context ctx;
//   Machine machine(ctx, program, options);
//   TS_ASSIGN_OR_RETURN(EntryState entry, machine.CreateEntry(*method));
//   machine.Assume(entry, precondition_over(entry));
//   TS_ASSIGN_OR_RETURN(ExecutionResult result, machine.Execute(entry));
//   z3::solver solver(ctx);
//   for (const z3::expr& axiom : machine.axioms()) solver.add(axiom);
//   solver.add(entry.guard && result.normal->guard && !postcondition);
//   if (solver.check() == z3::sat) machine.BuildObservation(solver.get_model(), ...);
#ifndef TRACESPEC_VALIDATOR_SYMEX_MACHINE_H_
#define TRACESPEC_VALIDATOR_SYMEX_MACHINE_H_

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/symex/java_ops.h"
#include "validator/symex/program.h"
#include "z3++.h"

namespace tracespec::symex {

struct ExecOptions {
  // Loop bound k: a loop's back edge may be taken at most k times per entry
  // of the loop; the (k+1)-th traversal becomes an unwinding obligation.
  int unwind = 4;
  // Recursion bound: at most this many activations of one method on the
  // inlined call stack; -1 means `unwind`.
  int recursion = -1;
  // L: input arrays (parameters, fields of inputs) have length 0..L, and a
  // multianewarray with a symbolic outer dimension creates at most L rows.
  int max_array = 4;
  // Calls nested deeper than this are reported as a bound (never silently cut).
  int max_call_depth = 64;
  // The receiver of CreateEntry has exactly the method's class (when that
  // class is concrete) rather than any concrete subclass.
  bool exact_receiver_type = true;
  // After a class's <clinit> has run, give its non-final static fields fresh
  // input values (method mode: "any state after class initialisation").
  // Off in harness mode, where statics evolve from their defaults.
  bool havoc_statics_after_init = true;
  // Execution stops with DeadlineExceeded after this point in time.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  // The induction step (`verify`'s unbounded proof): every loop that writes
  // only primitive locals, instance fields and array elements, and calls
  // nothing but Verifier and the constructors of library classes, and whose
  // enclosing loops qualify too, is entered in an arbitrary state: the
  // locals and heap locations it writes get fresh values, constrained only
  // by candidate invariants (order relations between its int locals and
  // their entry values). The back edge ends the path: the arbitrary state
  // at the head covers every later iteration. Each candidate is checked
  // where the loop is entered and at each back edge (kInvariant
  // obligations, detail = the candidate's text); the caller drops the ones
  // that fail (`dropped_invariants`) and runs again. Other loops are unwound
  // as usual. Paths are over-approximated: a violation found here is not a
  // counterexample.
  bool induction = false;
  std::set<std::string> dropped_invariants;
  // Constants of the class files read as other values: every ldc of an
  // Integer, Long or String entry, sipush operand and ConstantValue
  // attribute equal to a key gives its value instead (the agent solves a
  // counterexample again with the denied constants substituted, to find
  // the values that depend on them: agent/loop/feedback.h).
  std::map<int64_t, int64_t> substitute_numbers;
  std::map<std::string, std::string> substitute_texts;
};

// A place in the bytecode.
struct Site {
  const MethodInfo* method = nullptr;
  uint32_t pc = 0;
  uint32_t line = 0;  // 0 when the class file has no line table
  std::string instruction;  // e.g. "idiv", "invokevirtual pkg.C.m(int)"
  // "pkg.C.m(int) (C.java:12, bytecode 7: idiv)"
  std::string Describe() const;
};

enum class ObligationKind {
  // An exception is raised here (implicit runtime exception, a library
  // model's exception, or athrow). Raised is not escaped: handlers may catch it.
  kException,
  // A loop needs more than `unwind` iterations (the unwinding assertion).
  kUnwinding,
  // A method needs more than `recursion` activations.
  kRecursion,
  // Another bound was hit (call depth, multianewarray rows beyond L).
  kBound,
  // A construct without a model is reached (library method, missing class,
  // invokedynamic other than string concatenation, ...): the path is cut.
  kUnsupported,
  // Induction step only: a candidate loop invariant fails where the loop is
  // entered or at a back edge (detail: the candidate).
  kInvariant,
};
const char* ObligationKindName(ObligationKind kind);

struct Obligation {
  ObligationKind kind;
  z3::expr condition;  // the path condition under which this point is reached
  int site = 0;        // index into Machine::sites()
  // Exception class (binary name) for kException; what is unsupported or
  // which bound was hit otherwise.
  std::string detail;
};

// The disjunction of the conditions of the obligations of `kinds`.
z3::expr AnyObligation(const JavaOps& ops, const std::vector<Obligation>& obligations,
                       std::initializer_list<ObligationKind> kinds);
// The first obligation of `kinds` whose condition holds in `model`.
const Obligation* WitnessObligation(const z3::model& model,
                                    const std::vector<Obligation>& obligations,
                                    std::initializer_list<ObligationKind> kinds);

// The heap of one state. Components absent from the maps still hold their
// initial value (Machine::Initial*); read and write through the Machine.
struct Heap {
  std::map<int, z3::expr> fields;    // instance field id -> (Ref -> stored value)
  std::map<int, z3::expr> statics;   // static field id -> stored value
  std::map<int, z3::expr> contents;  // ElemKind -> (Ref -> (Int -> stored value))
  std::map<std::string, z3::expr> initialized;  // class -> has <clinit> run
};

// The state at the entry of the analysed method, with handles to its inputs.
struct EntryState {
  const MethodInfo* method = nullptr;
  // Assumptions on the inputs (true at first; Machine::Assume strengthens it).
  z3::expr guard;
  Heap heap;
  std::optional<Value> receiver;  // instance methods
  std::vector<Value> args;        // one per declared parameter
  std::vector<std::string> arg_names;
  // Obligations raised while building the entry (class initialisation);
  // Execute reports them with its own.
  std::vector<Obligation> obligations;
};

// One way out of a method.
struct ExitState {
  z3::expr guard;  // path condition (includes the entry guard)
  Heap heap;
  // Normal exit: the return value (absent for void). Exceptional exit: the
  // exception object (a reference); Machine::TypeOf gives its class.
  std::optional<Value> value;
};

struct ExecutionResult {
  std::optional<ExitState> normal;
  std::optional<ExitState> exceptional;
  // Every obligation raised while executing (also those of inlined callees
  // and static initialisers), in execution order.
  std::vector<Obligation> obligations;
};

// A call of a class-path method the caller wants to handle itself (e.g. by a
// callee contract) instead of inlining it.
struct CallSite {
  const MethodInfo* callee = nullptr;
  int site = 0;
  z3::expr guard;                 // path condition at the call
  const Heap* heap = nullptr;     // heap before the call
  std::optional<Value> receiver;  // instance methods (non-null here)
  std::vector<Value> args;
};

struct CallOutcome {
  // Normal return: guard (a strengthening of CallSite::guard), heap after,
  // return value (absent for void).
  std::optional<ExitState> normal;
  // Exceptional return; value is the exception reference.
  std::optional<ExitState> exceptional;
};

class CallInterceptor {
 public:
  virtual ~CallInterceptor() = default;
  // Returns an outcome to use it instead of inlining `call`, or nullopt to
  // let the machine inline the callee.
  virtual absl::StatusOr<std::optional<CallOutcome>> Intercept(class Machine& machine,
                                                               const CallSite& call) = 0;
};

// Sees the state each time an execution reaches the head of a loop (the
// target of a back edge) of any executed method, e.g. to check loop
// invariants of the analysed one. Within the bounds every arrival is seen:
// the entry and each of the first k iterations.
class LoopHeadObserver {
 public:
  virtual ~LoopHeadObserver() = default;
  virtual void AtLoopHead(const MethodInfo& method, uint32_t pc, const z3::expr& guard,
                          const Heap& heap, const std::vector<Value>& locals) = 0;
  // The induction step (ExecOptions::induction) enters a loop in an
  // arbitrary state: what may be assumed of that state at the head `pc`
  // (e.g. the loop invariants the specification gives). Sound only because
  // the step also shows the entry state and the state at every back edge
  // to AtLoopHead, where the same condition must be checked.
  virtual z3::expr AssumedAtHead(const MethodInfo& method, uint32_t pc, const z3::expr& guard,
                                 const Heap& heap, const std::vector<Value>& locals) {
    return guard.ctx().bool_val(true);
  }
};

// Sees the state each time the execution of the entry method (not of a
// callee) reaches one of the program points the observer watches, before
// the instruction there runs, and may narrow the executions that go on
// from there: e.g. JML assert (seen) and assume (assumed) statements. A
// loop head counts as reached when the loop is entered, not again by its
// back edge (a statement before a `while` runs once).
class PointObserver {
 public:
  virtual ~PointObserver() = default;
  virtual bool Watches(const MethodInfo& method, uint32_t pc) const = 0;
  // A condition every execution going on from here satisfies (true: all go on).
  virtual z3::expr AtPoint(const MethodInfo& method, uint32_t pc, const z3::expr& guard,
                           const Heap& heap, const std::vector<Value>& locals) = 0;
};

// A value read from an input (Verifier.nondet*(), a static field's value
// after class initialisation), in execution order.
struct InputEvent {
  enum class Source { kNondet, kStatic };
  Source source;
  Value value;
  z3::expr guard;
  int site = 0;
  std::string descriptor;  // JVM type of the value
  std::string name;        // "nondetInt" or the field "pkg.C.f"
  const FieldInfo* field = nullptr;
};

// Where the executed code went: one record per executed basic block.
struct TraceEvent {
  z3::expr guard;
  int site;
};

class Machine {
 public:
  Machine(z3::context& ctx, const Program& program, ExecOptions options);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  z3::context& ctx() const { return ctx_; }
  const JavaOps& ops() const { return ops_; }
  const Program& program() const { return program_; }
  const ExecOptions& options() const { return options_; }

  // (a) The entry state of `method` with free inputs: receiver (non-null,
  // of the method's class; for a constructor a new object with default
  // fields), parameters (references may be null or alias), everything
  // reachable from them, static fields after initialisation. The method's
  // class is initialised first.
  absl::StatusOr<EntryState> CreateEntry(const MethodInfo& method);
  // The entry of `main(String[])` for the SV-COMP harness: no free inputs
  // besides Verifier.nondet*(), args is an empty String[], every static
  // field starts at its default and <clinit> runs on first use.
  absl::StatusOr<EntryState> CreateHarnessEntry(const MethodInfo& main);

  // (b) Adds an assumption over the entry state.
  void Assume(EntryState& entry, const z3::expr& condition) const;
  // Runs the initialisation of `cls` on the entry state (so that a spec can
  // read its static fields before the call).
  absl::Status EnsureInitialized(EntryState& entry, const ClassInfo& cls);

  // (c) Executes the entry's method. Calls of class-path methods are inlined
  // unless `interceptor` handles them.
  absl::StatusOr<ExecutionResult> Execute(const EntryState& entry,
                                          CallInterceptor* interceptor = nullptr,
                                          LoopHeadObserver* loop_observer = nullptr,
                                          PointObserver* point_observer = nullptr);

  // Calls the model of the library method `key` ("java/lang/Math.abs(I)I",
  // see library_classes.h) on `args` in `heap` under `guard`, outside an
  // execution (for calls in specifications): the value of its normal exit
  // and the condition under which it throws instead. NotFound when the
  // method has no model.
  struct ModelledCall {
    std::optional<Value> value;
    z3::expr throws;
  };
  absl::StatusOr<ModelledCall> CallLibraryModel(const std::string& key, const Heap& heap,
                                                const z3::expr& guard,
                                                const std::vector<Value>& args);

  // The string literal with this text (UTF-8, an unpaired surrogate in its
  // 3-byte form, as the class file reader gives constants): one
  // preexisting object per text, with its characters (for specifications).
  z3::expr StringLiteral(const std::string& text);

  // Heap access with the machine's memory model (also usable on entry and
  // exit heaps from specs). Reads of input objects add their typing axioms.
  Value ReadField(const Heap& heap, const z3::expr& ref, const FieldInfo& field);
  Value ReadStatic(const Heap& heap, const FieldInfo& field) const;
  // Whether the static initialiser of `cls` may not have run in `heap`
  // (then ReadStatic gives the default value, not the initialised one).
  bool MayBeUninitialized(const Heap& heap, const ClassInfo& cls) const;
  // The constant `name` of the enum of class `cls` ("p.Light$Color"), when
  // CreateEntry initialised that enum (its constants exist before the call).
  std::optional<z3::expr> EnumConstant(absl::string_view cls, absl::string_view name) const;
  z3::expr ArrayLength(const z3::expr& ref);
  // Element `index` of the array `ref` whose static type is
  // `array_descriptor` (e.g. "[I"; for "[B" boolean arrays are handled too).
  Value ReadElement(const Heap& heap, const z3::expr& ref, const z3::expr& index,
                    absl::string_view array_descriptor);
  void WriteField(Heap& heap, const z3::expr& ref, const FieldInfo& field, const Value& value);
  void WriteStatic(Heap& heap, const FieldInfo& field, const Value& value);
  void WriteElement(Heap& heap, const z3::expr& ref, const z3::expr& index,
                    absl::string_view array_descriptor, const Value& value);
  // Every element of the array `ref` (of type `array_descriptor`) in `heap`
  // set to its type's default, as in a heap of its allocation: a heap that is
  // not (a heap havocked at a loop head, a pinned post-state) says nothing of
  // an array allocated after it.
  void WriteDefaultElements(Heap& heap, const z3::expr& ref, absl::string_view array_descriptor);
  // The runtime type id of a non-null reference (a TypeSort term).
  z3::expr TypeOf(const z3::expr& ref) const;
  // ref != null and its runtime type is assignable to `type` (class internal
  // name or array descriptor). `unknown`, when given, receives the condition
  // under which the answer depends on a class missing from the class path.
  z3::expr InstanceOf(const z3::expr& ref, absl::string_view type,
                      z3::expr* unknown = nullptr) const;
  // The site (index into sites()) where the exception object `ref` was
  // created, as a term; 0 when unknown (e.g. an input object).
  z3::expr OriginSite(const z3::expr& ref) const;
  // For frame checks (validator/check): the whole store of an instance
  // field (Ref -> stored value) or of the arrays of one element kind
  // (Ref -> Int -> stored value) in `heap`, and whether `ref` denotes an
  // object that existed before the execution (an input or a preexisting
  // object) rather than one it allocated.
  z3::expr FieldStore(const Heap& heap, int field_id);
  z3::expr ContentStore(const Heap& heap, ElemKind kind);
  z3::expr ExistedAtEntry(const z3::expr& ref) const;
  // Whether `ref` is the char[] of a string that existed before the
  // execution (an input or a literal): never written, a string being
  // immutable.
  z3::expr IsPreexistingStringChars(const z3::expr& ref) const;
  // `store` (a FieldStore or ContentStore) without its writes at objects the
  // execution allocated: it reads the same at every reference for which
  // ExistedAtEntry holds, and keeps a frame query free of the contents of
  // new objects (the characters of the strings a method builds).
  z3::expr WithoutNewObjects(const z3::expr& store) const;
  // A fresh unconstrained value (for havoc and callee contracts). Fresh
  // references are treated as inputs of static type `descriptor`.
  Value Fresh(const std::string& descriptor, const std::string& name);
  // Allocates a new object of class `cls` (fields at their defaults).
  z3::expr NewObject(const ClassInfo& cls);
  // Allocates a new array of type `descriptor` ("[I") with `length`
  // elements at their defaults (`length` must not be negative and must not
  // name the variables of a Z3 quantifier: it becomes a background fact).
  // Nullopt when the program knows no such array type.
  std::optional<z3::expr> NewArray(const std::string& descriptor, const z3::expr& length);

  // Where the bound L (ExecOptions::max_array) may cut the inputs: the
  // condition that some input array (`arrays`), or the characters of some
  // input string (`strings`), is longer than L. Only the axioms of the
  // bound exclude it: satisfiable with AxiomsWithoutLengthBounds() and a
  // precondition, the bound cut executions the precondition admits. False
  // for a kind whose lengths no execution or specification read so far.
  struct LengthBounds {
    z3::expr arrays;
    z3::expr strings;
  };
  LengthBounds LengthsBeyondBound() const;
  // axioms() without the upper bounds L on input lengths.
  std::vector<z3::expr> AxiomsWithoutLengthBounds() const;

  // Background facts every query must include: typing of input objects,
  // defaults of allocated objects, bounds of input arrays.
  const std::vector<z3::expr>& axioms() const { return axioms_; }
  // Adds a background fact about symbols a caller introduced (validator/
  // check: the contract of a model method, as an uninterpreted function,
  // at one of its calls). It must hold for some interpretation of those
  // symbols, whatever the others: every query assumes it.
  void AddAxiom(const z3::expr& axiom) {
    for (const z3::expr& a : axioms_) {
      if (z3::eq(a, axiom)) return;
    }
    axioms_.push_back(axiom);
  }
  const std::vector<Site>& sites() const { return sites_; }
  const std::vector<InputEvent>& inputs() const { return inputs_; }
  const std::vector<TraceEvent>& trace() const { return trace_; }

  // (e) A concrete Observation from a model of (entry guard & exit guard &
  // ...): args, receiver, pre-state (objects reachable from them at entry),
  // post-state and outcome; source = COUNTEREXAMPLE.
  absl::StatusOr<tracespec::v1::Observation> BuildObservation(const z3::model& model,
                                                              const EntryState& entry,
                                                              const ExitState& exit,
                                                              bool exceptional);
  // The same, also describing in `pre` the objects that `extra_roots`
  // (value, descriptor) refer to, e.g. static fields' input values; their
  // object ids (0 for null or a primitive) go to `root_ids`.
  absl::StatusOr<tracespec::v1::Observation> BuildObservation(
      const z3::model& model, const EntryState& entry, const ExitState& exit, bool exceptional,
      const std::vector<std::pair<Value, std::string>>& extra_roots,
      std::vector<uint64_t>* root_ids);
  // Evaluates a value in a model as Java source text ("42", "-0.0f",
  // "Float.NaN", "null", "#3" for objects).
  std::string FormatValue(const z3::model& model, const Value& value,
                          absl::string_view descriptor) const;
  // The binary class name of the runtime type of `ref` in `model`.
  std::string TypeNameIn(const z3::model& model, const z3::expr& ref) const;

  // Implementation detail shared with the instruction semantics.
  class Impl;

 private:
  z3::context& ctx_;
  const Program& program_;
  ExecOptions options_;
  JavaOps ops_;
  std::vector<z3::expr> axioms_;
  std::set<size_t> length_bound_axioms_;  // indices into axioms_
  std::vector<Site> sites_;
  std::vector<InputEvent> inputs_;
  std::vector<TraceEvent> trace_;
  std::unique_ptr<Impl> impl_;
  friend class Impl;
};

}  // namespace tracespec::symex

#endif  // TRACESPEC_VALIDATOR_SYMEX_MACHINE_H_
