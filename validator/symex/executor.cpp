// Instruction semantics, state merging and loop unwinding (see machine.h).
//
// One MethodRun executes one activation of a method. States wait in a queue
// ordered by bytecode offset; the smallest offset runs next, after every
// state waiting there has been merged into one (their path conditions are
// disjoint, so values merge into if-then-else terms). A jump to a smaller or
// equal offset is a back edge: it re-enters the loop body with a counter per
// loop head, reset when execution leaves the loop's range, and the (k+1)-th
// traversal becomes an unwinding obligation instead of a state.
#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "validator/classfile/instructions.h"
#include "validator/symex/machine_impl.h"

namespace tracespec::symex {

using classfile::Instruction;
namespace op = classfile;

namespace {

std::string InstructionText(const MethodInfo& method, const Instruction& ins) {
  const classfile::ConstantPool& pool = method.owner->file->pool;
  std::string text = classfile::Mnemonic(ins.opcode);
  switch (ins.opcode) {
    case op::kGetstatic: case op::kPutstatic: case op::kGetfield: case op::kPutfield: {
      classfile::MemberRef ref = pool.Member(ins.operand);
      return absl::StrCat(text, " ", classfile::InternalToBinary(ref.class_name), ".", ref.name);
    }
    case op::kInvokevirtual: case op::kInvokespecial: case op::kInvokestatic:
    case op::kInvokeinterface: {
      classfile::MemberRef ref = pool.Member(ins.operand);
      return absl::StrCat(text, " ", classfile::InternalToBinary(ref.class_name), ".", ref.name,
                          ref.descriptor);
    }
    case op::kNew: case op::kAnewarray: case op::kCheckcast: case op::kInstanceof:
    case op::kMultianewarray:
      return absl::StrCat(text, " ", classfile::InternalToBinary(pool.ClassName(ins.operand)));
    default:
      return text;
  }
}

const char* kNpe = "java/lang/NullPointerException";
const char* kAioobe = "java/lang/ArrayIndexOutOfBoundsException";
const char* kArith = "java/lang/ArithmeticException";
const char* kNase = "java/lang/NegativeArraySizeException";
const char* kCce = "java/lang/ClassCastException";
const char* kAse = "java/lang/ArrayStoreException";

class MethodRun {
 public:
  MethodRun(Machine::Impl& impl, const MethodInfo& method)
      : impl_(impl),
        m_(impl.m),
        ops_(impl.ops),
        method_(method),
        code_(method.code()),
        pool_(method.owner->file->pool) {
    for (const Instruction& ins : code_.instructions) {
      for (uint32_t t : code_.Successors(ins)) targets_.insert(t);
    }
    loop_end_ = code_.LoopRanges();
    if (impl_.options.induction) FindInductionLoops();
  }

  absl::StatusOr<CallResult> Run(State entry) {
    Enter(static_cast<uint32_t>(code_.bytes.size()), 0, entry);
    pending_[0].push_back(std::move(entry));
    while (!pending_.empty()) {
      TS_RETURN_IF_ERROR(impl_.CheckDeadline());
      auto it = pending_.begin();
      uint32_t pc = it->first;
      std::vector<State> states = std::move(it->second);
      pending_.erase(it);
      ResetLoops(pc);
      TS_ASSIGN_OR_RETURN(State s, Merge(std::move(states), pc));
      if (JavaOps::IsFalse(s.guard)) continue;
      int index = code_.IndexOfPc(pc);
      if (index < 0) return Malformed(pc, "jump into the middle of an instruction");
      impl_.AddTrace(TraceEvent{s.guard, impl_.SiteOf(method_, pc)});
      if (impl_.loop_observer != nullptr && loop_end_.count(pc) > 0) {
        impl_.loop_observer->AtLoopHead(method_, pc, s.guard, s.heap, s.locals);
      }
      uint32_t line = code_.LineOf(pc);
      while (true) {
        const Instruction& ins = code_.instructions[index];
        if (uint32_t l = code_.LineOf(ins.pc); l != line) {
          // Each source line of the block joins the path.
          line = l;
          impl_.AddTrace(TraceEvent{s.guard, impl_.SiteOf(method_, ins.pc)});
        }
        // A loop head reached again by its back edge is not a new arrival
        // at the statement before the loop.
        if (impl_.point_observer != nullptr && impl_.call_stack.empty() &&
            loop_counts_.count(ins.pc) == 0 &&
            impl_.point_observer->Watches(method_, ins.pc)) {
          s.guard = ops_.And(s.guard, impl_.point_observer->AtPoint(method_, ins.pc, s.guard,
                                                                     s.heap, s.locals));
          if (JavaOps::IsFalse(s.guard)) break;
        }
        next_.reset();
        ++impl_.steps;
        TS_RETURN_IF_ERROR(Step(ins, std::move(s)));
        if (!next_.has_value()) break;
        uint32_t next_pc = ins.pc + ins.length;
        if (index + 1 >= static_cast<int>(code_.instructions.size())) {
          return Malformed(ins.pc, "execution falls off the end of the code");
        }
        Enter(ins.pc, next_pc, *next_);
        // Straight-line execution continues only while this state is the one
        // with the smallest offset (a back edge may have queued an earlier one).
        if (targets_.count(next_pc) ||
            (!pending_.empty() && pending_.begin()->first <= next_pc)) {
          pending_[next_pc].push_back(std::move(*next_));
          break;
        }
        s = std::move(*next_);
        ++index;
        ResetLoops(next_pc);
      }
    }
    CallResult result;
    if (!normal_.empty()) result.normal = impl_.MergeExits(std::move(normal_));
    if (!exceptional_.empty()) result.exceptional = impl_.MergeExits(std::move(exceptional_));
    return result;
  }

 private:
  absl::Status Malformed(uint32_t pc, absl::string_view problem) const {
    return absl::InvalidArgumentError(absl::StrCat(
        method_.owner->file->source, ": byte ", code_.file_offset + pc, ": ",
        method_.DisplayName(), " at bytecode ", pc, ": ", problem));
  }

  absl::StatusOr<State> Merge(std::vector<State> states, uint32_t pc) {
    if (states.size() == 1) return std::move(states[0]);
    for (const State& s : states) {
      if (s.stack.size() != states[0].stack.size()) {
        return Malformed(pc, "operand stacks of different heights meet");
      }
    }
    return impl_.MergeStates(std::move(states));
  }

  void ResetLoops(uint32_t pc) {
    for (auto it = loop_counts_.begin(); it != loop_counts_.end();) {
      auto end = loop_end_.find(it->first);
      uint32_t last = end == loop_end_.end() ? it->first : end->second;
      if (pc < it->first || pc > last) {
        it = loop_counts_.erase(it);
      } else {
        ++it;
      }
    }
  }

  int Site(uint32_t pc) { return impl_.SiteOf(method_, pc); }

  // ---- the induction step (ExecOptions::induction) ----

  struct InductionLoop {
    uint32_t head = 0, end = 0;
    std::set<uint32_t> slots;     // locals written in the loop
    std::set<int> fields;         // instance fields written
    std::set<ElemKind> contents;  // array element kinds written
    std::map<uint32_t, z3::expr> entry;  // slot -> its value where the loop was entered
  };

  bool InRange(const InductionLoop& l, uint32_t pc) const { return l.head <= pc && pc <= l.end; }

  bool IsLibraryClass(const std::string& name) const {
    const ClassInfo* c = impl_.program.FindClass(name);
    return c != nullptr && c->origin != ClassInfo::Origin::kClassPath;
  }

  // Which loops qualify (see ExecOptions::induction) and what they write.
  void FindInductionLoops() {
    for (const auto& [head, end] : loop_end_) {
      InductionLoop l;
      l.head = head;
      l.end = end;
      bool ok = true;
      for (const Instruction& ins : code_.instructions) {
        if (!ok) break;
        if (ins.pc < head || ins.pc > end) continue;
        const uint8_t o = ins.opcode;
        if (o == op::kAstore || (o >= op::kAstore0 && o <= op::kAstore0 + 3)) {
          ok = false;
        } else if ((o >= op::kIstore && o <= op::kDstore) ||
                   (o >= op::kIstore0 && o < op::kAstore0) || o == op::kIinc) {
          l.slots.insert(static_cast<uint32_t>(ins.operand));
        } else if (o >= op::kIastore && o <= op::kSastore) {
          static const ElemKind kKinds[] = {ElemKind::kInt,  ElemKind::kLong, ElemKind::kFloat,
                                            ElemKind::kDouble, ElemKind::kRef, ElemKind::kByte,
                                            ElemKind::kChar, ElemKind::kShort};
          l.contents.insert(kKinds[o - op::kIastore]);
          if (o == op::kBastore) l.contents.insert(ElemKind::kBoolean);
        } else if (o == op::kPutfield) {
          classfile::MemberRef ref = pool_.Member(ins.operand);
          const FieldInfo* f = impl_.program.ResolveField(ref.class_name, ref.name, ref.descriptor);
          if (f == nullptr) ok = false;
          else l.fields.insert(f->id);
        } else if (o == op::kInvokestatic) {
          ok = pool_.Member(ins.operand).class_name == "org/sosy_lab/sv_benchmarks/Verifier";
        } else if (o == op::kInvokespecial) {
          classfile::MemberRef ref = pool_.Member(ins.operand);
          ok = ref.name == "<init>" && IsLibraryClass(ref.class_name);
        } else if (o == op::kNew) {
          ok = IsLibraryClass(pool_.ClassName(ins.operand));
        } else if (o == op::kPutstatic || o == op::kInvokevirtual ||
                   o == op::kInvokeinterface || o == op::kInvokedynamic || o == op::kJsr ||
                   o == op::kJsrW || o == op::kRet || o == op::kMonitorenter) {
          ok = false;
        }
      }
      if (ok) induction_loops_.emplace(head, std::move(l));
    }
    // A loop inside a loop that is unwound, or overlapping another loop
    // without nesting, could be entered more than once on one path: it is
    // unwound too.
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [head, end] : loop_end_) {
        bool qualifies = induction_loops_.count(head) > 0;
        for (auto it = induction_loops_.begin(); it != induction_loops_.end();) {
          uint32_t h = it->second.head, e = it->second.end;
          bool inside = head <= h && e <= end && !(head == h && end == e);
          bool overlaps = (head < h && h <= end && end < e) || (h < head && head <= e && e < end);
          if ((inside && !qualifies) || overlaps) {
            it = induction_loops_.erase(it);
            changed = true;
          } else {
            ++it;
          }
        }
      }
    }
  }

  std::string LocalName(uint32_t slot, uint32_t pc) const {
    for (const classfile::LocalVariable& v : code_.locals) {
      if (v.slot == slot && v.start_pc <= pc + 3 && pc < v.start_pc + v.length + 3) return v.name;
    }
    return absl::StrCat("local", slot);
  }

  // The candidate invariants of a loop over `locals`, each with its text:
  // for each int local v the loop writes, v >= 0, v against its value at
  // loop entry, and v against every other int local (<=, >=).
  std::vector<std::pair<std::string, z3::expr>> Candidates(const InductionLoop& l,
                                                           const std::vector<Value>& locals) {
    std::vector<std::pair<std::string, z3::expr>> out;
    std::string where = absl::StrCat(method_.SourceFile(), ":", code_.LineOf(l.head));
    for (uint32_t v : l.slots) {
      if (v >= locals.size() || locals[v].kind != Kind::kInt) continue;
      auto entry = l.entry.find(v);
      if (entry == l.entry.end()) continue;
      std::string name = LocalName(v, l.head);
      const z3::expr& x = locals[v].e;
      out.emplace_back(absl::StrCat(name, " >= 0 (loop at ", where, ")"),
                       ops_.Le(ops_.Int(0), x));
      out.emplace_back(absl::StrCat(name, " >= its value at loop entry (loop at ", where, ")"),
                       ops_.Le(entry->second, x));
      out.emplace_back(absl::StrCat(name, " <= its value at loop entry (loop at ", where, ")"),
                       ops_.Le(x, entry->second));
      for (uint32_t w = 0; w < locals.size(); ++w) {
        if (w == v || locals[w].kind != Kind::kInt) continue;
        std::string other = LocalName(w, l.head);
        out.emplace_back(absl::StrCat(name, " <= ", other, " (loop at ", where, ")"),
                         ops_.Le(x, locals[w].e));
        out.emplace_back(absl::StrCat(name, " >= ", other, " (loop at ", where, ")"),
                         ops_.Le(locals[w].e, x));
      }
    }
    std::vector<std::pair<std::string, z3::expr>> kept;
    for (auto& c : out) {
      if (!impl_.options.dropped_invariants.count(c.first)) kept.push_back(std::move(c));
    }
    return kept;
  }

  // Each candidate must hold here: a kInvariant obligation where it may not.
  void CheckCandidates(const InductionLoop& l, const State& s, uint32_t pc) {
    for (const auto& [text, holds] : Candidates(l, s.locals)) {
      z3::expr broken = ops_.And(s.guard, ops_.Not(holds));
      if (!JavaOps::IsFalse(broken)) {
        impl_.AddObligation(ObligationKind::kInvariant, broken, Site(pc), text);
      }
    }
  }

  // A state going from `from` to `to` enters each qualifying loop whose
  // range holds `to` but not `from` in an arbitrary state (outer loops first).
  void Enter(uint32_t from, uint32_t to, State& s) {
    if (induction_loops_.empty()) return;
    std::vector<InductionLoop*> entered;
    for (auto& [head, l] : induction_loops_) {
      if (InRange(l, to) && !InRange(l, from)) entered.push_back(&l);
    }
    std::sort(entered.begin(), entered.end(), [](const InductionLoop* a, const InductionLoop* b) {
      return a->end - a->head > b->end - b->head;
    });
    for (InductionLoop* l : entered) {
      // The entry values are shared by the paths entering here (they are
      // disjoint, and a loop is entered at most once per path and call).
      for (uint32_t v : l->slots) {
        if (v >= s.locals.size() || s.locals[v].kind != Kind::kInt) continue;
        auto it = l->entry.find(v);
        if (it == l->entry.end()) {
          it = l->entry.emplace(v, impl_.FreshConst("entry", ops_.IntSort())).first;
        }
        s.guard = ops_.And(s.guard, ops_.Eq(it->second, s.locals[v].e));
      }
      CheckCandidates(*l, s, to);
      if (impl_.loop_observer != nullptr) {  // the entry state, checked by the observer
        impl_.loop_observer->AtLoopHead(method_, l->head, s.guard, s.heap, s.locals);
      }
      for (uint32_t v : l->slots) {
        if (v >= s.locals.size() || s.locals[v].kind == Kind::kNone) continue;
        Kind kind = s.locals[v].kind;
        s.locals[v] = Value{kind, impl_.FreshConst("havoc", ops_.SortOf(kind))};
      }
      for (int f : l->fields) {
        s.heap.fields.insert_or_assign(f, impl_.HavocField(f));
      }
      for (ElemKind k : l->contents) {
        s.heap.contents.insert_or_assign(static_cast<int>(k), impl_.HavocContent(k));
      }
      for (const auto& [text, holds] : Candidates(*l, s.locals)) {
        s.guard = ops_.And(s.guard, holds);
      }
      if (impl_.loop_observer != nullptr) {
        s.guard = ops_.And(s.guard, impl_.loop_observer->AssumedAtHead(method_, l->head, s.guard,
                                                                       s.heap, s.locals));
      }
    }
  }

  void Jump(uint32_t from, uint32_t to, State s) {
    if (JavaOps::IsFalse(s.guard)) return;
    if (auto l = induction_loops_.find(to);
        l != induction_loops_.end() && to <= from && InRange(l->second, from)) {
      // The arbitrary state at the head covers the next iteration.
      CheckCandidates(l->second, s, from);
      if (impl_.loop_observer != nullptr) {  // a back edge, checked by the observer
        impl_.loop_observer->AtLoopHead(method_, to, s.guard, s.heap, s.locals);
      }
      return;
    }
    Enter(from, to, s);
    if (to <= from) {
      int count = ++loop_counts_[to];
      if (count > impl_.options.unwind) {
        uint32_t line = code_.LineOf(to);
        impl_.AddObligation(ObligationKind::kUnwinding, s.guard, Site(to),
                            absl::StrCat("loop at ", method_.SourceFile(), ":", line,
                                         " in ", method_.DisplayName(), " needs more than ",
                                         impl_.options.unwind, " iterations"));
        return;
      }
    }
    pending_[to].push_back(std::move(s));
  }

  void Fallthrough(State s) {
    if (JavaOps::IsFalse(s.guard)) return;
    next_ = std::move(s);
  }

  void Branch(const Instruction& ins, State s, const z3::expr& cond) {
    State taken = s;
    taken.guard = ops_.And(s.guard, cond);
    s.guard = ops_.And(s.guard, ops_.Not(cond));
    Jump(ins.pc, static_cast<uint32_t>(ins.operand), std::move(taken));
    Fallthrough(std::move(s));
  }

  // Dispatches an exception to this method's handlers; what no handler
  // takes leaves the method.
  void Throw(State s, const z3::expr& exception, uint32_t pc) {
    z3::expr remaining = s.guard;
    std::string known;
    if (auto r = JavaOps::BvValue(exception)) {
      auto it = impl_.allocations().find(static_cast<uint32_t>(*r));
      if (it != impl_.allocations().end()) known = impl_.program.Type(it->second.type_id).name;
    }
    for (const classfile::ExceptionHandler& h : code_.handlers) {
      if (JavaOps::IsFalse(remaining)) return;
      if (pc < h.start_pc || pc >= h.end_pc) continue;
      z3::expr cond = ops_.True();
      if (!h.catch_type.empty()) {
        if (!known.empty() && impl_.program.HierarchyKnown(known)) {
          cond = ops_.ctx().bool_val(impl_.program.IsAssignable(known, h.catch_type));
        } else {
          z3::expr unknown = ops_.False();
          cond = m_.InstanceOf(exception, h.catch_type, &unknown);
          z3::expr reach_unknown = ops_.And(remaining, unknown);
          if (!JavaOps::IsFalse(reach_unknown)) {
            impl_.AddObligation(ObligationKind::kUnsupported, reach_unknown, Site(pc),
                                absl::StrCat("catch (", classfile::InternalToBinary(h.catch_type),
                                             ") of an exception whose class hierarchy is not "
                                             "on the class path"));
            remaining = ops_.And(remaining, ops_.Not(unknown));
          }
        }
      }
      State handler{ops_.And(remaining, cond), s.heap, s.locals, {Value{Kind::kRef, exception}}};
      Jump(pc, h.handler_pc, std::move(handler));
      remaining = ops_.And(remaining, ops_.Not(cond));
    }
    if (JavaOps::IsFalse(remaining)) return;
    exceptional_.push_back(ExitState{remaining, std::move(s.heap), Value{Kind::kRef, exception}});
  }

  // Raises `exception_class` where `cond` holds; `s` keeps the other paths.
  // Returns whether any path remains in `s`.
  bool Fail(State& s, const z3::expr& cond, const std::string& exception_class,
            const Instruction& ins) {
    z3::expr failing = ops_.And(s.guard, cond);
    if (!JavaOps::IsFalse(failing)) {
      ExitState raised = impl_.Raise(failing, s.heap, exception_class, Site(ins.pc));
      Throw(State{failing, std::move(raised.heap), s.locals, {}}, raised.value->e, ins.pc);
    }
    s.guard = ops_.And(s.guard, ops_.Not(cond));
    return !JavaOps::IsFalse(s.guard);
  }

  bool NullCheck(State& s, const z3::expr& ref, const Instruction& ins) {
    return Fail(s, ops_.Eq(ref, ops_.Null()), kNpe, ins);
  }

  // The descriptor of the constructor that initialises the object `new_ins`
  // (a `new` of `cls`) creates: the first invokespecial of cls.<init> after
  // it that is not paired with a later `new` of the same class (javac's
  // `new C; dup; args; invokespecial C.<init>`). Names the call in the reason
  // of a cut at a `new` of a JDK class without a model.
  std::optional<std::string> ConstructorAfter(const Instruction& new_ins,
                                              absl::string_view cls) const {
    int index = code_.IndexOfPc(new_ins.pc);
    if (index < 0) return std::nullopt;
    int open = 1;
    for (size_t i = index + 1; i < code_.instructions.size(); ++i) {
      const Instruction& next = code_.instructions[i];
      if (next.opcode == op::kNew && pool_.ClassName(next.operand) == cls) {
        ++open;
      } else if (next.opcode == op::kInvokespecial) {
        classfile::MemberRef ref = pool_.Member(next.operand);
        if (ref.name == "<init>" && ref.class_name == cls && --open == 0) return ref.descriptor;
      }
    }
    return std::nullopt;
  }

  void Unsupported(const State& s, const Instruction& ins, const std::string& what) {
    impl_.AddObligation(ObligationKind::kUnsupported, s.guard, Site(ins.pc), what);
  }

  // `a == b` of references where one is an object a static initialiser
  // allocated (an enum constant) and the other may be an input: the input
  // can never be that object here (Machine::Impl::initializer_objects), so
  // the comparison would be decided wrongly; unsupported where an input
  // takes part.
  void UnsupportedComparison(const State& s, const Instruction& ins, const z3::expr& a,
                             const z3::expr& b) {
    if (impl_.initializer_objects.empty()) return;
    for (const auto& [object, other] : {std::pair(a, b), std::pair(b, a)}) {
      std::optional<uint64_t> ref = JavaOps::BvValue(object);
      if (!ref || JavaOps::BvValue(other)) continue;
      for (const auto& made : impl_.initializer_objects) {
        if (*ref < made.lo || *ref >= made.hi) continue;
        impl_.AddObligation(
            ObligationKind::kUnsupported, ops_.And(s.guard, impl_.IsInputRef(other)), Site(ins.pc),
            absl::StrCat("comparing a reference that may come from the inputs with an object of ",
                         made.class_name, "'s static initialiser (an enum constant: inputs "
                         "holding one are not modelled)"));
        return;
      }
    }
  }

  static Value Pop(State& s) {
    Value v = std::move(s.stack.back());
    s.stack.pop_back();
    return v;
  }

  absl::Status Need(const State& s, const Instruction& ins, size_t n) const {
    if (s.stack.size() < n) return Malformed(ins.pc, "operand stack underflow");
    return absl::OkStatus();
  }

  Value Int(const z3::expr& e) const { return Value{Kind::kInt, e}; }

  absl::Status Step(const Instruction& ins, State s);
  absl::Status ArrayAccess(const Instruction& ins, State s);
  absl::Status StackOp(const Instruction& ins, State s);
  absl::Status Arithmetic(const Instruction& ins, State s);
  absl::Status Invoke(const Instruction& ins, State s);
  absl::Status InvokeDynamic(const Instruction& ins, State s);
  absl::Status FieldAccess(const Instruction& ins, State s);
  absl::Status NewArray(const Instruction& ins, State s);
  absl::Status Ldc(const Instruction& ins, State s);
  void Continue(State caller, const std::optional<ExitState>& normal,
                const std::optional<ExitState>& exceptional, const std::string& return_descriptor,
                const Instruction& ins);
  z3::expr BuildMultiArray(State& s, const std::string& descriptor,
                           const std::vector<z3::expr>& counts, size_t level,
                           const Instruction& ins, z3::expr* overflow);

  Machine::Impl& impl_;
  Machine& m_;
  const JavaOps& ops_;
  const MethodInfo& method_;
  const classfile::Code& code_;
  const classfile::ConstantPool& pool_;
  std::map<uint32_t, std::vector<State>> pending_;
  std::map<uint32_t, int> loop_counts_;
  std::map<uint32_t, uint32_t> loop_end_;
  std::set<uint32_t> targets_;
  std::map<uint32_t, InductionLoop> induction_loops_;  // by head
  std::vector<ExitState> normal_;
  std::vector<ExitState> exceptional_;
  std::optional<State> next_;
};

absl::Status MethodRun::Step(const Instruction& ins, State s) {
  const uint8_t o = ins.opcode;
  auto local = [&](uint32_t slot) -> absl::StatusOr<Value> {
    if (slot >= s.locals.size()) return Malformed(ins.pc, "local variable index out of range");
    if (s.locals[slot].kind == Kind::kNone) {
      return Malformed(ins.pc, absl::StrCat("read of uninitialised local ", slot));
    }
    return s.locals[slot];
  };
  auto store_local = [&](uint32_t slot, Value v) -> absl::Status {
    uint32_t width = v.wide() ? 2 : 1;
    if (slot + width > s.locals.size()) {
      return Malformed(ins.pc, "local variable index out of range");
    }
    if (slot > 0 && s.locals[slot - 1].wide()) s.locals[slot - 1] = Value{Kind::kNone, ops_.Int(0)};
    s.locals[slot] = std::move(v);
    if (width == 2) s.locals[slot + 1] = Value{Kind::kNone, ops_.Int(0)};
    return absl::OkStatus();
  };
  switch (o) {
    case op::kNop:
      Fallthrough(std::move(s));
      return absl::OkStatus();
    case op::kAconstNull:
      s.stack.push_back(Value{Kind::kRef, ops_.Null()});
      Fallthrough(std::move(s));
      return absl::OkStatus();
    case op::kIconstM1: case op::kIconst0: case op::kIconst1: case op::kIconst2:
    case op::kIconst3: case op::kIconst4: case op::kIconst5: case op::kBipush:
      s.stack.push_back(Int(ops_.Int(ins.operand)));
      Fallthrough(std::move(s));
      return absl::OkStatus();
    case op::kSipush:
      s.stack.push_back(Int(ops_.Int(static_cast<int32_t>(impl_.ConstantNumber(ins.operand)))));
      Fallthrough(std::move(s));
      return absl::OkStatus();
    case op::kLconst0: case op::kLconst1:
      s.stack.push_back(Value{Kind::kLong, ops_.Long(o - op::kLconst0)});
      Fallthrough(std::move(s));
      return absl::OkStatus();
    case op::kFconst0: case op::kFconst1: case op::kFconst2:
      s.stack.push_back(Value{Kind::kFloat, ops_.Float(static_cast<float>(o - op::kFconst0))});
      Fallthrough(std::move(s));
      return absl::OkStatus();
    case op::kDconst0: case op::kDconst1:
      s.stack.push_back(Value{Kind::kDouble, ops_.Double(static_cast<double>(o - op::kDconst0))});
      Fallthrough(std::move(s));
      return absl::OkStatus();
    case op::kLdc: case op::kLdcW: case op::kLdc2W:
      return Ldc(ins, std::move(s));
    default:
      break;
  }
  if ((o >= op::kIload && o <= op::kAload) || (o >= op::kIload0 && o <= op::kIload0 + 19)) {
    TS_ASSIGN_OR_RETURN(Value v, local(static_cast<uint32_t>(ins.operand)));
    s.stack.push_back(std::move(v));
    Fallthrough(std::move(s));
    return absl::OkStatus();
  }
  if ((o >= op::kIstore && o <= op::kAstore) || (o >= op::kIstore0 && o <= op::kIstore0 + 19)) {
    TS_RETURN_IF_ERROR(Need(s, ins, 1));
    TS_RETURN_IF_ERROR(store_local(static_cast<uint32_t>(ins.operand), Pop(s)));
    Fallthrough(std::move(s));
    return absl::OkStatus();
  }
  if ((o >= op::kIaload && o <= op::kSaload) || (o >= op::kIastore && o <= op::kSastore)) {
    return ArrayAccess(ins, std::move(s));
  }
  if (o >= op::kPop && o <= op::kSwap) return StackOp(ins, std::move(s));
  if (o >= op::kIadd && o <= op::kDcmpg && o != op::kIinc) return Arithmetic(ins, std::move(s));
  switch (o) {
    case op::kIinc: {
      TS_ASSIGN_OR_RETURN(Value v, local(static_cast<uint32_t>(ins.operand)));
      s.locals[ins.operand] = Int(ops_.Add(v.e, ops_.Int(ins.operand2)));
      Fallthrough(std::move(s));
      return absl::OkStatus();
    }
    case op::kIfeq: case op::kIfne: case op::kIflt: case op::kIfge: case op::kIfgt:
    case op::kIfle: {
      TS_RETURN_IF_ERROR(Need(s, ins, 1));
      z3::expr v = Pop(s).e;
      z3::expr zero = ops_.Int(0);
      z3::expr cond = o == op::kIfeq   ? ops_.Eq(v, zero)
                      : o == op::kIfne ? ops_.Not(ops_.Eq(v, zero))
                      : o == op::kIflt ? ops_.Lt(v, zero)
                      : o == op::kIfge ? ops_.Le(zero, v)
                      : o == op::kIfgt ? ops_.Lt(zero, v)
                                       : ops_.Le(v, zero);
      Branch(ins, std::move(s), cond);
      return absl::OkStatus();
    }
    case op::kIfIcmpeq: case op::kIfIcmpne: case op::kIfIcmplt: case op::kIfIcmpge:
    case op::kIfIcmpgt: case op::kIfIcmple: case op::kIfAcmpeq: case op::kIfAcmpne: {
      TS_RETURN_IF_ERROR(Need(s, ins, 2));
      z3::expr b = Pop(s).e;
      z3::expr a = Pop(s).e;
      if (o == op::kIfAcmpeq || o == op::kIfAcmpne) UnsupportedComparison(s, ins, a, b);
      z3::expr cond = (o == op::kIfIcmpeq || o == op::kIfAcmpeq) ? ops_.Eq(a, b)
                      : (o == op::kIfIcmpne || o == op::kIfAcmpne) ? ops_.Not(ops_.Eq(a, b))
                      : o == op::kIfIcmplt ? ops_.Lt(a, b)
                      : o == op::kIfIcmpge ? ops_.Le(b, a)
                      : o == op::kIfIcmpgt ? ops_.Lt(b, a)
                                           : ops_.Le(a, b);
      Branch(ins, std::move(s), cond);
      return absl::OkStatus();
    }
    case op::kIfnull: case op::kIfnonnull: {
      TS_RETURN_IF_ERROR(Need(s, ins, 1));
      z3::expr is_null = ops_.Eq(Pop(s).e, ops_.Null());
      Branch(ins, std::move(s), o == op::kIfnull ? is_null : ops_.Not(is_null));
      return absl::OkStatus();
    }
    case op::kGoto: case op::kGotoW:
      Jump(ins.pc, static_cast<uint32_t>(ins.operand), std::move(s));
      return absl::OkStatus();
    case op::kJsr: case op::kJsrW: case op::kRet:
      Unsupported(s, ins, "jsr/ret subroutines (class files before Java 6)");
      return absl::OkStatus();
    case op::kTableswitch: case op::kLookupswitch: {
      TS_RETURN_IF_ERROR(Need(s, ins, 1));
      z3::expr key = Pop(s).e;
      std::map<uint32_t, z3::expr> by_target;
      z3::expr any = ops_.False();
      for (const auto& [k, target] : ins.cases) {
        z3::expr c = ops_.Eq(key, ops_.Int(k));
        auto it = by_target.find(target);
        if (it == by_target.end()) {
          by_target.emplace(target, c);
        } else {
          it->second = ops_.Or(it->second, c);
        }
        any = ops_.Or(any, c);
      }
      auto def = by_target.find(ins.default_target);
      if (def == by_target.end()) {
        by_target.emplace(ins.default_target, ops_.Not(any));
      } else {
        def->second = ops_.Or(def->second, ops_.Not(any));
      }
      for (auto& [target, cond] : by_target) {
        State t = s;
        t.guard = ops_.And(s.guard, cond);
        Jump(ins.pc, target, std::move(t));
      }
      return absl::OkStatus();
    }
    case op::kIreturn: case op::kLreturn: case op::kFreturn: case op::kDreturn:
    case op::kAreturn: {
      TS_RETURN_IF_ERROR(Need(s, ins, 1));
      Value v = Pop(s);
      // Narrow to the declared return type (JVM spec §6.5 ireturn).
      const std::string& ret = method_.signature.ret;
      if (o == op::kIreturn && !ret.empty() && ret[0] != 'I') {
        v.e = ops_.LoadAs(ret[0], ops_.StoreAs(ret[0], v.e));
      }
      normal_.push_back(ExitState{s.guard, std::move(s.heap), std::move(v)});
      return absl::OkStatus();
    }
    case op::kReturn:
      normal_.push_back(ExitState{s.guard, std::move(s.heap), std::nullopt});
      return absl::OkStatus();
    case op::kGetstatic: case op::kPutstatic: case op::kGetfield: case op::kPutfield:
      return FieldAccess(ins, std::move(s));
    case op::kInvokevirtual: case op::kInvokespecial: case op::kInvokestatic:
    case op::kInvokeinterface:
      return Invoke(ins, std::move(s));
    case op::kInvokedynamic:
      return InvokeDynamic(ins, std::move(s));
    case op::kNew: {
      const std::string& name = pool_.ClassName(ins.operand);
      const ClassInfo* cls = impl_.program.FindClass(name);
      if (cls == nullptr || cls->is_missing()) {
        std::optional<std::string> constructor =
            Program::IsJdkClass(name) ? ConstructorAfter(ins, name) : std::nullopt;
        Unsupported(s, ins,
                    constructor ? Program::NotModelledCall(name, "<init>", *constructor)
                                : absl::StrCat("new ", classfile::InternalToBinary(name), ": ",
                                               impl_.program.AbsentClass(name)));
        return absl::OkStatus();
      }
      if (cls->type_id == 0 || impl_.program.Type(cls->type_id).opaque) {
        Unsupported(s, ins, absl::StrCat("new ", cls->binary_name(),
                                         ": the class cannot be instantiated here"));
        return absl::OkStatus();
      }
      TS_ASSIGN_OR_RETURN(std::optional<State> after,
                          impl_.Initialize(std::move(s), *cls, Site(ins.pc)));
      if (!after) return absl::OkStatus();
      int origin = impl_.program.IsThrowable(cls) ? Site(ins.pc) : 0;
      after->stack.push_back(Value{Kind::kRef, impl_.Allocate(cls->type_id, std::nullopt, origin)});
      Fallthrough(std::move(*after));
      return absl::OkStatus();
    }
    case op::kNewarray: case op::kAnewarray: case op::kMultianewarray:
      return NewArray(ins, std::move(s));
    case op::kArraylength: {
      TS_RETURN_IF_ERROR(Need(s, ins, 1));
      z3::expr ref = Pop(s).e;
      if (!NullCheck(s, ref, ins)) return absl::OkStatus();
      s.stack.push_back(Int(m_.ArrayLength(ref)));
      Fallthrough(std::move(s));
      return absl::OkStatus();
    }
    case op::kAthrow: {
      TS_RETURN_IF_ERROR(Need(s, ins, 1));
      z3::expr ref = Pop(s).e;
      if (!NullCheck(s, ref, ins)) return absl::OkStatus();
      std::string detail = "dynamic";
      if (auto r = JavaOps::BvValue(ref)) {
        auto it = impl_.allocations().find(static_cast<uint32_t>(*r));
        if (it != impl_.allocations().end()) {
          detail = impl_.program.Type(it->second.type_id).DisplayName();
        }
      }
      impl_.AddObligation(ObligationKind::kException, s.guard, Site(ins.pc), detail);
      Throw(std::move(s), ref, ins.pc);
      return absl::OkStatus();
    }
    case op::kCheckcast: case op::kInstanceof: {
      TS_RETURN_IF_ERROR(Need(s, ins, 1));
      const std::string& type = pool_.ClassName(ins.operand);
      z3::expr ref = s.stack.back().e;
      z3::expr unknown = ops_.False();
      z3::expr is = m_.InstanceOf(ref, type, &unknown);
      z3::expr reach_unknown = ops_.And(s.guard, unknown);
      if (!JavaOps::IsFalse(reach_unknown)) {
        impl_.AddObligation(ObligationKind::kUnsupported, reach_unknown, Site(ins.pc),
                            absl::StrCat(classfile::Mnemonic(o), " ",
                                         classfile::InternalToBinary(type),
                                         " on an object whose class hierarchy is not on the "
                                         "class path"));
        s.guard = ops_.And(s.guard, ops_.Not(unknown));
      }
      if (o == op::kInstanceof) {
        s.stack.pop_back();
        s.stack.push_back(Int(ops_.Ite(is, ops_.Int(1), ops_.Int(0))));
        Fallthrough(std::move(s));
        return absl::OkStatus();
      }
      z3::expr fails = ops_.And(ops_.Not(ops_.Eq(ref, ops_.Null())), ops_.Not(is));
      if (Fail(s, fails, kCce, ins)) Fallthrough(std::move(s));
      return absl::OkStatus();
    }
    case op::kMonitorenter: case op::kMonitorexit: {
      TS_RETURN_IF_ERROR(Need(s, ins, 1));
      z3::expr ref = Pop(s).e;
      if (NullCheck(s, ref, ins)) Fallthrough(std::move(s));
      return absl::OkStatus();
    }
    default:
      return Malformed(ins.pc, absl::StrCat("unexpected opcode ", classfile::Mnemonic(o)));
  }
}

absl::Status MethodRun::Ldc(const Instruction& ins, State s) {
  const classfile::CpEntry& e = pool_.at(ins.operand);
  switch (e.tag) {
    case classfile::CpTag::kInteger:
      s.stack.push_back(Int(ops_.Int(
          static_cast<int32_t>(impl_.ConstantNumber(static_cast<int32_t>(e.bits32))))));
      break;
    case classfile::CpTag::kFloat:
      s.stack.push_back(Value{Kind::kFloat, ops_.FloatBits(e.bits32)});
      break;
    case classfile::CpTag::kLong:
      s.stack.push_back(
          Value{Kind::kLong, ops_.Long(impl_.ConstantNumber(static_cast<int64_t>(e.bits64)))});
      break;
    case classfile::CpTag::kDouble:
      s.stack.push_back(Value{Kind::kDouble, ops_.DoubleBits(e.bits64)});
      break;
    case classfile::CpTag::kString:
      s.stack.push_back(Value{
          Kind::kRef, impl_.StringLiteral(impl_.ConstantText(pool_.StringValue(ins.operand)))});
      break;
    case classfile::CpTag::kClass:
      s.stack.push_back(Value{Kind::kRef, impl_.ClassLiteral(pool_.ClassName(ins.operand))});
      break;
    default:
      Unsupported(s, ins, "ldc of a method handle, method type or dynamic constant");
      return absl::OkStatus();
  }
  Fallthrough(std::move(s));
  return absl::OkStatus();
}

absl::Status MethodRun::ArrayAccess(const Instruction& ins, State s) {
  const uint8_t o = ins.opcode;
  bool is_store = o >= op::kIastore;
  int family = is_store ? o - op::kIastore : o - op::kIaload;
  static const ElemKind kKinds[] = {ElemKind::kInt,    ElemKind::kLong, ElemKind::kFloat,
                                    ElemKind::kDouble, ElemKind::kRef,  ElemKind::kByte,
                                    ElemKind::kChar,   ElemKind::kShort};
  static const Kind kValueKinds[] = {Kind::kInt, Kind::kLong, Kind::kFloat, Kind::kDouble,
                                     Kind::kRef, Kind::kInt,  Kind::kInt,   Kind::kInt};
  ElemKind kind = kKinds[family];
  TS_RETURN_IF_ERROR(Need(s, ins, is_store ? 3 : 2));
  std::optional<Value> value;
  if (is_store) value = Pop(s);
  z3::expr index = Pop(s).e;
  z3::expr array = Pop(s).e;
  if (!NullCheck(s, array, ins)) return absl::OkStatus();
  z3::expr length = m_.ArrayLength(array);
  z3::expr out_of_bounds = ops_.Or(ops_.Lt(index, ops_.Int(0)), ops_.Le(length, index));
  if (!Fail(s, out_of_bounds, kAioobe, ins)) return absl::OkStatus();
  if (!is_store) {
    s.stack.push_back(Value{kValueKinds[family], impl_.LoadElement(s.heap, array, index, kind)});
    Fallthrough(std::move(s));
    return absl::OkStatus();
  }
  if (kind == ElemKind::kRef) {
    // aastore checks the value against the array's runtime component type.
    z3::expr v = value->e;
    z3::expr array_type = m_.TypeOf(array);
    z3::expr fits = ops_.False();
    z3::expr unknown_all = ops_.False();
    const Program& program = impl_.program;
    for (int id = 1; id <= program.type_count(); ++id) {
      const TypeInfo& t = program.Type(id);
      if (!t.is_array || t.elem != ElemKind::kRef) continue;
      z3::expr is_this = ops_.Eq(array_type, ops_.TypeId(id));
      if (JavaOps::IsFalse(is_this)) continue;
      z3::expr unknown = ops_.False();
      z3::expr ok = m_.InstanceOf(v, classfile::DescriptorToClassName(t.component), &unknown);
      fits = ops_.Or(fits, ops_.And(is_this, ok));
      unknown_all = ops_.Or(unknown_all, ops_.And(is_this, unknown));
    }
    z3::expr reach_unknown = ops_.And(s.guard, unknown_all);
    if (!JavaOps::IsFalse(reach_unknown)) {
      // Said as for calls: a JDK class is not modelled by the validator;
      // only the program's own missing classes are the class path's.
      std::vector<std::string> absent;
      for (int id : program.OpaqueTypes()) {
        const std::string& name = program.Type(id).name;
        if (Program::IsJdkClass(name)) continue;
        if (absent.size() == 3) {
          absent.push_back("...");
          break;
        }
        absent.push_back(program.AbsentClass(name));
      }
      impl_.AddObligation(
          ObligationKind::kUnsupported, reach_unknown, Site(ins.pc),
          absent.empty()
              ? "aastore of an object that may be of a JDK class not modelled by the validator"
              : absl::StrCat("aastore of an object whose class hierarchy is not known (",
                             absl::StrJoin(absent, "; "), ")"));
      s.guard = ops_.And(s.guard, ops_.Not(unknown_all));
    }
    z3::expr fails = ops_.And(ops_.Not(ops_.Eq(v, ops_.Null())), ops_.Not(fits));
    if (!Fail(s, fails, kAse, ins)) return absl::OkStatus();
  }
  impl_.StoreElement(s.heap, array, index, kind, value->e);
  Fallthrough(std::move(s));
  return absl::OkStatus();
}

absl::Status MethodRun::StackOp(const Instruction& ins, State s) {
  auto cat = [](const Value& v) { return v.wide() ? 2 : 1; };
  auto& st = s.stack;
  size_t n = st.size();
  auto underflow = [&] { return Malformed(ins.pc, "operand stack underflow"); };
  switch (ins.opcode) {
    case op::kPop:
      if (n < 1) return underflow();
      st.pop_back();
      break;
    case op::kPop2:
      if (n < 1) return underflow();
      if (cat(st[n - 1]) == 2) {
        st.pop_back();
      } else {
        if (n < 2) return underflow();
        st.resize(n - 2, st[0]);
      }
      break;
    case op::kDup:
      if (n < 1) return underflow();
      st.push_back(st[n - 1]);
      break;
    case op::kDupX1: {
      if (n < 2) return underflow();
      Value v1 = st[n - 1];
      st.insert(st.end() - 2, v1);
      break;
    }
    case op::kDupX2: {
      if (n < 2) return underflow();
      Value v1 = st[n - 1];
      if (cat(st[n - 2]) == 2) {
        st.insert(st.end() - 2, v1);  // form 2
      } else {
        if (n < 3) return underflow();
        st.insert(st.end() - 3, v1);  // form 1
      }
      break;
    }
    case op::kDup2:
      if (n < 1) return underflow();
      if (cat(st[n - 1]) == 2) {
        st.push_back(st[n - 1]);
      } else {
        if (n < 2) return underflow();
        Value a = st[n - 2], b = st[n - 1];
        st.push_back(a);
        st.push_back(b);
      }
      break;
    case op::kDup2X1: {
      if (n < 2) return underflow();
      if (cat(st[n - 1]) == 2) {
        Value v1 = st[n - 1];
        st.insert(st.end() - 2, v1);
      } else {
        if (n < 3) return underflow();
        Value v2 = st[n - 2], v1 = st[n - 1];
        st.insert(st.end() - 3, {v2, v1});
      }
      break;
    }
    case op::kDup2X2: {
      if (n < 2) return underflow();
      if (cat(st[n - 1]) == 2) {
        Value v1 = st[n - 1];
        if (cat(st[n - 2]) == 2) {
          st.insert(st.end() - 2, v1);  // form 4
        } else {
          if (n < 3) return underflow();
          st.insert(st.end() - 3, v1);  // form 2
        }
      } else {
        if (n < 3) return underflow();
        Value v2 = st[n - 2], v1 = st[n - 1];
        if (cat(st[n - 3]) == 2) {
          st.insert(st.end() - 3, {v2, v1});  // form 3
        } else {
          if (n < 4) return underflow();
          st.insert(st.end() - 4, {v2, v1});  // form 1
        }
      }
      break;
    }
    case op::kSwap: {
      if (n < 2) return underflow();
      std::swap(st[n - 1], st[n - 2]);
      break;
    }
  }
  Fallthrough(std::move(s));
  return absl::OkStatus();
}

absl::Status MethodRun::Arithmetic(const Instruction& ins, State s) {
  const uint8_t o = ins.opcode;
  auto binary = [&](Kind kind, auto f) -> absl::Status {
    TS_RETURN_IF_ERROR(Need(s, ins, 2));
    z3::expr b = Pop(s).e;
    z3::expr a = Pop(s).e;
    s.stack.push_back(Value{kind, f(a, b)});
    Fallthrough(std::move(s));
    return absl::OkStatus();
  };
  auto unary = [&](Kind kind, auto f) -> absl::Status {
    TS_RETURN_IF_ERROR(Need(s, ins, 1));
    z3::expr a = Pop(s).e;
    s.stack.push_back(Value{kind, f(a)});
    Fallthrough(std::move(s));
    return absl::OkStatus();
  };
  const JavaOps& k = ops_;
  switch (o) {
    case op::kIadd: return binary(Kind::kInt, [&](auto a, auto b) { return k.Add(a, b); });
    case op::kLadd: return binary(Kind::kLong, [&](auto a, auto b) { return k.Add(a, b); });
    case op::kFadd: return binary(Kind::kFloat, [&](auto a, auto b) { return k.FAdd(a, b); });
    case op::kDadd: return binary(Kind::kDouble, [&](auto a, auto b) { return k.FAdd(a, b); });
    case op::kIsub: return binary(Kind::kInt, [&](auto a, auto b) { return k.Sub(a, b); });
    case op::kLsub: return binary(Kind::kLong, [&](auto a, auto b) { return k.Sub(a, b); });
    case op::kFsub: return binary(Kind::kFloat, [&](auto a, auto b) { return k.FSub(a, b); });
    case op::kDsub: return binary(Kind::kDouble, [&](auto a, auto b) { return k.FSub(a, b); });
    case op::kImul: return binary(Kind::kInt, [&](auto a, auto b) { return k.Mul(a, b); });
    case op::kLmul: return binary(Kind::kLong, [&](auto a, auto b) { return k.Mul(a, b); });
    case op::kFmul: return binary(Kind::kFloat, [&](auto a, auto b) { return k.FMul(a, b); });
    case op::kDmul: return binary(Kind::kDouble, [&](auto a, auto b) { return k.FMul(a, b); });
    case op::kFdiv: return binary(Kind::kFloat, [&](auto a, auto b) { return k.FDiv(a, b); });
    case op::kDdiv: return binary(Kind::kDouble, [&](auto a, auto b) { return k.FDiv(a, b); });
    case op::kFrem: return binary(Kind::kFloat, [&](auto a, auto b) { return k.FRem(a, b); });
    case op::kDrem: return binary(Kind::kDouble, [&](auto a, auto b) { return k.FRem(a, b); });
    case op::kIdiv: case op::kLdiv: case op::kIrem: case op::kLrem: {
      TS_RETURN_IF_ERROR(Need(s, ins, 2));
      Value b = Pop(s);
      Value a = Pop(s);
      z3::expr zero = b.kind == Kind::kLong ? k.Long(0) : k.Int(0);
      if (!Fail(s, k.Eq(b.e, zero), kArith, ins)) return absl::OkStatus();
      bool div = o == op::kIdiv || o == op::kLdiv;
      s.stack.push_back(Value{a.kind, div ? k.Div(a.e, b.e) : k.Rem(a.e, b.e)});
      Fallthrough(std::move(s));
      return absl::OkStatus();
    }
    case op::kIneg: return unary(Kind::kInt, [&](auto a) { return k.Neg(a); });
    case op::kLneg: return unary(Kind::kLong, [&](auto a) { return k.Neg(a); });
    case op::kFneg: return unary(Kind::kFloat, [&](auto a) { return k.FNeg(a); });
    case op::kDneg: return unary(Kind::kDouble, [&](auto a) { return k.FNeg(a); });
    case op::kIshl: return binary(Kind::kInt, [&](auto a, auto b) { return k.Shl(a, b); });
    case op::kLshl: return binary(Kind::kLong, [&](auto a, auto b) { return k.Shl(a, b); });
    case op::kIshr: return binary(Kind::kInt, [&](auto a, auto b) { return k.Shr(a, b); });
    case op::kLshr: return binary(Kind::kLong, [&](auto a, auto b) { return k.Shr(a, b); });
    case op::kIushr: return binary(Kind::kInt, [&](auto a, auto b) { return k.Ushr(a, b); });
    case op::kLushr: return binary(Kind::kLong, [&](auto a, auto b) { return k.Ushr(a, b); });
    case op::kIand: return binary(Kind::kInt, [&](auto a, auto b) { return k.BitAnd(a, b); });
    case op::kLand: return binary(Kind::kLong, [&](auto a, auto b) { return k.BitAnd(a, b); });
    case op::kIor: return binary(Kind::kInt, [&](auto a, auto b) { return k.BitOr(a, b); });
    case op::kLor: return binary(Kind::kLong, [&](auto a, auto b) { return k.BitOr(a, b); });
    case op::kIxor: return binary(Kind::kInt, [&](auto a, auto b) { return k.BitXor(a, b); });
    case op::kLxor: return binary(Kind::kLong, [&](auto a, auto b) { return k.BitXor(a, b); });
    case op::kI2l: return unary(Kind::kLong, [&](auto a) { return k.I2L(a); });
    case op::kI2f: return unary(Kind::kFloat, [&](auto a) { return k.I2F(a); });
    case op::kI2d: return unary(Kind::kDouble, [&](auto a) { return k.I2D(a); });
    case op::kL2i: return unary(Kind::kInt, [&](auto a) { return k.L2I(a); });
    case op::kL2f: return unary(Kind::kFloat, [&](auto a) { return k.L2F(a); });
    case op::kL2d: return unary(Kind::kDouble, [&](auto a) { return k.L2D(a); });
    case op::kF2i: return unary(Kind::kInt, [&](auto a) { return k.FpToInt(a, 32); });
    case op::kF2l: return unary(Kind::kLong, [&](auto a) { return k.FpToInt(a, 64); });
    case op::kF2d: return unary(Kind::kDouble, [&](auto a) { return k.F2D(a); });
    case op::kD2i: return unary(Kind::kInt, [&](auto a) { return k.FpToInt(a, 32); });
    case op::kD2l: return unary(Kind::kLong, [&](auto a) { return k.FpToInt(a, 64); });
    case op::kD2f: return unary(Kind::kFloat, [&](auto a) { return k.D2F(a); });
    case op::kI2b: return unary(Kind::kInt, [&](auto a) { return k.I2B(a); });
    case op::kI2c: return unary(Kind::kInt, [&](auto a) { return k.I2C(a); });
    case op::kI2s: return unary(Kind::kInt, [&](auto a) { return k.I2S(a); });
    case op::kLcmp: return binary(Kind::kInt, [&](auto a, auto b) { return k.Cmp(a, b); });
    case op::kFcmpl: case op::kDcmpl:
      return binary(Kind::kInt, [&](auto a, auto b) { return k.FCmp(a, b, -1); });
    case op::kFcmpg: case op::kDcmpg:
      return binary(Kind::kInt, [&](auto a, auto b) { return k.FCmp(a, b, 1); });
    default:
      return Malformed(ins.pc, absl::StrCat("unexpected opcode ", classfile::Mnemonic(o)));
  }
}

absl::Status MethodRun::FieldAccess(const Instruction& ins, State s) {
  const uint8_t o = ins.opcode;
  classfile::MemberRef ref = pool_.Member(ins.operand);
  const FieldInfo* field = impl_.program.ResolveField(ref.class_name, ref.name, ref.descriptor);
  bool is_static = o == op::kGetstatic || o == op::kPutstatic;
  if (field == nullptr) {
    Unsupported(s, ins, absl::StrCat("field ", classfile::InternalToBinary(ref.class_name), ".",
                                     ref.name, ": not found on the class path"));
    return absl::OkStatus();
  }
  if (field->is_static != is_static) {
    return Malformed(ins.pc, absl::StrCat(classfile::Mnemonic(o), " of ",
                                          field->is_static ? "static" : "instance", " field ",
                                          field->DisplayName()));
  }
  const ClassInfo* owner = impl_.program.FindClass(field->owner);
  if (is_static) {
    if (owner->is_library()) {
      std::optional<Value> v = o == op::kGetstatic ? impl_.LibraryStatic(*field) : std::nullopt;
      if (!v) {
        Unsupported(s, ins, absl::StrCat(classfile::Mnemonic(o), " of library field ",
                                         field->DisplayName(), " (no model)"));
        return absl::OkStatus();
      }
      s.stack.push_back(*v);
      Fallthrough(std::move(s));
      return absl::OkStatus();
    }
    TS_ASSIGN_OR_RETURN(std::optional<State> after,
                        impl_.Initialize(std::move(s), *owner, Site(ins.pc)));
    if (!after) return absl::OkStatus();
    if (o == op::kGetstatic) {
      after->stack.push_back(m_.ReadStatic(after->heap, *field));
    } else {
      TS_RETURN_IF_ERROR(Need(*after, ins, 1));
      m_.WriteStatic(after->heap, *field, Pop(*after));
    }
    Fallthrough(std::move(*after));
    return absl::OkStatus();
  }
  if (o == op::kGetfield) {
    TS_RETURN_IF_ERROR(Need(s, ins, 1));
    z3::expr obj = Pop(s).e;
    if (!NullCheck(s, obj, ins)) return absl::OkStatus();
    s.stack.push_back(m_.ReadField(s.heap, obj, *field));
  } else {
    TS_RETURN_IF_ERROR(Need(s, ins, 2));
    Value v = Pop(s);
    z3::expr obj = Pop(s).e;
    if (!NullCheck(s, obj, ins)) return absl::OkStatus();
    m_.WriteField(s.heap, obj, *field, v);
  }
  Fallthrough(std::move(s));
  return absl::OkStatus();
}

z3::expr MethodRun::BuildMultiArray(State& s, const std::string& descriptor,
                                    const std::vector<z3::expr>& counts, size_t level,
                                    const Instruction& ins, z3::expr* overflow) {
  int type_id = impl_.program.TypeIdOf(descriptor);
  z3::expr length = counts[level];
  z3::expr array = impl_.Allocate(type_id, length, 0);
  if (level + 1 < counts.size()) {
    int rows = impl_.options.max_array;
    if (auto v = JavaOps::BvValue(length)) {
      rows = static_cast<int32_t>(*v);
    } else {
      *overflow = ops_.Or(*overflow, ops_.Lt(ops_.Int(rows), length));
    }
    for (int i = 0; i < rows; ++i) {
      z3::expr row = BuildMultiArray(s, descriptor.substr(1), counts, level + 1, ins, overflow);
      impl_.StoreElement(s.heap, array, ops_.Int(i), ElemKind::kRef, row);
    }
  }
  return array;
}

absl::Status MethodRun::NewArray(const Instruction& ins, State s) {
  const uint8_t o = ins.opcode;
  std::string descriptor;
  std::vector<z3::expr> counts;
  if (o == op::kNewarray) {
    static const char* kTypes[] = {"[Z", "[C", "[F", "[D", "[B", "[S", "[I", "[J"};
    descriptor = kTypes[ins.operand - 4];
  } else if (o == op::kAnewarray) {
    descriptor = "[" + classfile::ClassNameToDescriptor(pool_.ClassName(ins.operand));
  } else {
    descriptor = pool_.ClassName(ins.operand);
  }
  size_t dims = o == op::kMultianewarray ? static_cast<size_t>(ins.operand2) : 1;
  TS_RETURN_IF_ERROR(Need(s, ins, dims));
  for (size_t i = 0; i < dims; ++i) counts.insert(counts.begin(), Pop(s).e);
  if (impl_.program.TypeIdOf(descriptor) == 0 || descriptor.size() < dims ||
      descriptor.find_first_not_of('[') < dims) {
    return Malformed(ins.pc, absl::StrCat("array type ", descriptor, " unknown"));
  }
  z3::expr negative = ops_.False();
  for (const z3::expr& c : counts) negative = ops_.Or(negative, ops_.Lt(c, ops_.Int(0)));
  if (!Fail(s, negative, kNase, ins)) return absl::OkStatus();
  if (dims > 1) {
    // Concrete leading dimensions are built exactly; a symbolic one builds L
    // rows and reports the executions that need more as a bound.
    int64_t total = 1;
    for (size_t i = 0; i + 1 < dims; ++i) {
      auto v = JavaOps::BvValue(counts[i]);
      total *= v ? std::max<int64_t>(static_cast<int32_t>(*v), 1) : impl_.options.max_array + 1;
      if (total > 100000) {
        Unsupported(s, ins, "multianewarray with more than 100000 rows");
        return absl::OkStatus();
      }
    }
  }
  z3::expr overflow = ops_.False();
  z3::expr array = BuildMultiArray(s, descriptor, counts, 0, ins, &overflow);
  z3::expr cut = ops_.And(s.guard, overflow);
  if (!JavaOps::IsFalse(cut)) {
    impl_.AddObligation(ObligationKind::kBound, cut, Site(ins.pc),
                        absl::StrCat("multianewarray with more than ", impl_.options.max_array,
                                     " rows (the array bound L)"));
    s.guard = ops_.And(s.guard, ops_.Not(overflow));
  }
  s.stack.push_back(Value{Kind::kRef, array});
  Fallthrough(std::move(s));
  return absl::OkStatus();
}

void MethodRun::Continue(State caller, const std::optional<ExitState>& normal,
                         const std::optional<ExitState>& exceptional,
                         const std::string& return_descriptor, const Instruction& ins) {
  if (exceptional) {
    State t{exceptional->guard, exceptional->heap, caller.locals, {}};
    Throw(std::move(t), exceptional->value->e, ins.pc);
  }
  if (normal) {
    State t{normal->guard, normal->heap, std::move(caller.locals), std::move(caller.stack)};
    if (return_descriptor != "V") {
      Kind kind = KindOfDescriptor(return_descriptor[0]);
      t.stack.push_back(normal->value ? *normal->value : Value{kind, ops_.Default(kind)});
    }
    Fallthrough(std::move(t));
  }
}

absl::Status MethodRun::Invoke(const Instruction& ins, State s) {
  const uint8_t o = ins.opcode;
  classfile::MemberRef ref = pool_.Member(ins.operand);
  TS_ASSIGN_OR_RETURN(classfile::MethodDescriptor sig,
                      classfile::ParseMethodDescriptor(ref.descriptor));
  bool has_receiver = o != op::kInvokestatic;
  TS_RETURN_IF_ERROR(Need(s, ins, sig.params.size() + (has_receiver ? 1 : 0)));
  std::vector<Value> args(sig.params.size() + (has_receiver ? 1 : 0), Value{Kind::kNone, ops_.Int(0)});
  for (size_t i = args.size(); i-- > 0;) args[i] = Pop(s);
  int site = Site(ins.pc);
  if (o == op::kInvokestatic) {
    CallTarget target = impl_.program.ResolveStatic(ref.class_name, ref.name, ref.descriptor);
    if (target.kind == CallTarget::Kind::kBytecode) {
      TS_ASSIGN_OR_RETURN(std::optional<State> after,
                          impl_.Initialize(std::move(s), *target.method->owner, site));
      if (!after) return absl::OkStatus();
      s = std::move(*after);
    }
    TS_ASSIGN_OR_RETURN(CallResult r, impl_.Call(target, s, site, args, false));
    Continue(std::move(s), r.normal, r.exceptional, sig.ret, ins);
    return absl::OkStatus();
  }
  if (!NullCheck(s, args[0].e, ins)) return absl::OkStatus();
  if (o == op::kInvokespecial) {
    CallTarget target = impl_.program.ResolveSpecial(ref.class_name, ref.name, ref.descriptor);
    TS_ASSIGN_OR_RETURN(CallResult r, impl_.Call(target, s, site, args, true));
    Continue(std::move(s), r.normal, r.exceptional, sig.ret, ins);
    return absl::OkStatus();
  }
  std::vector<DispatchCase> cases =
      impl_.program.Dispatch(ref.class_name, ref.name, ref.descriptor);
  z3::expr type = m_.TypeOf(args[0].e);
  std::vector<ExitState> normals, exceptionals;
  z3::expr covered = ops_.False();
  for (const DispatchCase& c : cases) {
    State t = s;
    z3::expr selects = impl_.TypeIn(type, c.type_ids);
    covered = ops_.Or(covered, selects);
    t.guard = ops_.And(s.guard, selects);
    if (JavaOps::IsFalse(t.guard)) continue;
    TS_ASSIGN_OR_RETURN(CallResult r, impl_.Call(c.target, t, site, args, true));
    if (r.normal) normals.push_back(std::move(*r.normal));
    if (r.exceptional) exceptionals.push_back(std::move(*r.exceptional));
  }
  // A receiver outside the closed world (an opaque object passed as a
  // supertype) selects nothing known: never dropped silently.
  z3::expr uncovered = ops_.And(s.guard, ops_.Not(covered));
  if (!JavaOps::IsFalse(uncovered)) {
    impl_.AddObligation(ObligationKind::kUnsupported, uncovered, site,
                        absl::StrCat("call of ", classfile::InternalToBinary(ref.class_name), ".",
                                     ref.name, " on an object of a class outside the class path"));
  }
  std::optional<ExitState> normal, exceptional;
  if (!normals.empty()) normal = impl_.MergeExits(std::move(normals));
  if (!exceptionals.empty()) exceptional = impl_.MergeExits(std::move(exceptionals));
  Continue(std::move(s), normal, exceptional, sig.ret, ins);
  return absl::OkStatus();
}

absl::Status MethodRun::InvokeDynamic(const Instruction& ins, State s) {
  const classfile::CpEntry& indy = pool_.at(ins.operand);
  auto [name, descriptor] = pool_.NameAndType(indy.index2);
  const classfile::ClassFile& file = *method_.owner->file;
  std::string bootstrap = "?";
  if (indy.index1 < file.bootstrap_methods.size()) {
    const classfile::CpEntry& handle = pool_.at(file.bootstrap_methods[indy.index1].method_handle_index);
    classfile::MemberRef target = pool_.Member(handle.index1);
    bootstrap = absl::StrCat(target.class_name, ".", target.name);
  }
  if (bootstrap != "java/lang/invoke/StringConcatFactory.makeConcatWithConstants" &&
      bootstrap != "java/lang/invoke/StringConcatFactory.makeConcat") {
    Unsupported(s, ins, absl::StrCat("invokedynamic ", name, " via ",
                                     classfile::InternalToBinary(bootstrap),
                                     " (lambdas and method references are not supported)"));
    return absl::OkStatus();
  }
  TS_ASSIGN_OR_RETURN(classfile::MethodDescriptor sig, classfile::ParseMethodDescriptor(descriptor));
  TS_RETURN_IF_ERROR(Need(s, ins, sig.params.size()));
  std::vector<Value> args(sig.params.size(), Value{Kind::kNone, ops_.Int(0)});
  for (size_t i = args.size(); i-- > 0;) args[i] = Pop(s);
  // The pieces: constant text, or an argument (JDK StringConcatFactory: in
  // the recipe \1 is the next argument, \2 the next constant).
  struct Piece {
    std::string text;
    int arg = -1;
  };
  std::vector<Piece> pieces;
  if (bootstrap == "java/lang/invoke/StringConcatFactory.makeConcat") {
    for (size_t i = 0; i < args.size(); ++i) pieces.push_back(Piece{"", static_cast<int>(i)});
  } else {
    const std::vector<uint16_t>& constants = file.bootstrap_methods[indy.index1].arguments;
    if (constants.empty() || pool_.tag(constants[0]) != classfile::CpTag::kString) {
      return Malformed(ins.pc, "makeConcatWithConstants without a recipe");
    }
    const std::string& recipe = pool_.StringValue(constants[0]);
    size_t next_arg = 0, next_constant = 1;
    std::string text;
    for (char ch : recipe) {
      if (ch == '\1' || ch == '\2') {
        if (!text.empty()) pieces.push_back(Piece{std::move(text), -1});
        text.clear();
        if (ch == '\1') {
          if (next_arg >= args.size()) return Malformed(ins.pc, "concatenation recipe");
          pieces.push_back(Piece{"", static_cast<int>(next_arg++)});
        } else {
          if (next_constant >= constants.size() ||
              pool_.tag(constants[next_constant]) != classfile::CpTag::kString) {
            Unsupported(s, ins, "string concatenation with a non-string constant");
            return absl::OkStatus();
          }
          pieces.push_back(Piece{pool_.StringValue(constants[next_constant++]), -1});
        }
      } else {
        text.push_back(ch);
      }
    }
    if (!text.empty()) pieces.push_back(Piece{std::move(text), -1});
  }
  // Arguments whose text the models write: strings, integers below long,
  // chars and booleans. Others (long, floating point, objects: toString)
  // make the result an opaque string, as before the string models.
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& p = sig.params[i];
    if (p != "I" && p != "S" && p != "B" && p != "C" && p != "Z" && p != "Ljava/lang/String;") {
      s.stack.push_back(Value{Kind::kRef, impl_.Allocate(impl_.program.TypeIdOf("java/lang/String"),
                                                          std::nullopt, 0)});
      Fallthrough(std::move(s));
      return absl::OkStatus();
    }
  }
  // One call of a model or native on the way; false when no path goes on.
  int site = Site(ins.pc);
  auto call = [&](const CallTarget& target, std::vector<Value> call_args,
                  Value* out) -> absl::StatusOr<bool> {
    TS_ASSIGN_OR_RETURN(CallResult r, impl_.Call(target, s, site, call_args, false));
    if (r.exceptional) {
      State t{r.exceptional->guard, r.exceptional->heap, s.locals, {}};
      Throw(std::move(t), r.exceptional->value->e, ins.pc);
    }
    if (!r.normal) return false;
    s.guard = r.normal->guard;
    s.heap = r.normal->heap;
    if (r.normal->value) *out = *r.normal->value;
    return true;
  };
  const Program& program = impl_.program;
  const std::string intrinsics = "tracespec/jdk/Intrinsics";
  Value chars{Kind::kNone, ops_.Int(0)};
  bool first = true;
  const FieldInfo* value_field = program.ResolveField("java/lang/String", "value", "[C");
  if (value_field == nullptr) return absl::InternalError("java.lang.String.value missing");
  z3::expr empty_chars = impl_.Allocate(program.TypeIdOf("[C"), ops_.Int(0), 0);
  z3::expr opaque = ops_.False();
  for (const Piece& piece : pieces) {
    Value text{Kind::kRef, ops_.Null()};
    if (piece.arg < 0) {
      text.e = impl_.StringLiteral(impl_.ConstantText(piece.text));
    } else {
      const std::string& p = sig.params[piece.arg];
      const Value& v = args[piece.arg];
      if (p == "Ljava/lang/String;") {
        text.e = ops_.Ite(ops_.Eq(v.e, ops_.Null()), impl_.StringLiteral("null"), v.e);
      } else {
        std::string d = p == "C" || p == "Z" ? p : "I";
        TS_ASSIGN_OR_RETURN(bool going,
                            call(program.ResolveStatic("java/lang/String", "valueOf",
                                                       absl::StrCat("(", d, ")Ljava/lang/String;")),
                                 {v}, &text));
        if (!going) return absl::OkStatus();
      }
    }
    // An opaque piece (its characters not modelled) makes the result opaque.
    z3::expr raw = impl_.ResolveStringChars(m_.ReadField(s.heap, text.e, *value_field).e);
    z3::expr is_opaque = impl_.CharsNull(raw);
    opaque = ops_.Or(opaque, is_opaque);
    Value piece_chars{Kind::kRef, ops_.Ite(is_opaque, empty_chars, raw)};
    if (first) {
      chars = piece_chars;
      first = false;
      continue;
    }
    TS_ASSIGN_OR_RETURN(bool going,
                        call(program.ResolveStatic(intrinsics, "concat", "([C[C)[C"),
                             {chars, piece_chars}, &chars));
    if (!going) return absl::OkStatus();
  }
  // A new string (JLS 15.18.1) sharing the characters.
  if (first) chars = Value{Kind::kRef, empty_chars};  // no pieces: ""
  Value result{Kind::kRef, impl_.Allocate(program.TypeIdOf("java/lang/String"), std::nullopt, 0)};
  m_.WriteField(s.heap, result.e, *value_field,
                Value{Kind::kRef, ops_.Ite(opaque, ops_.Null(), chars.e)});
  s.stack.push_back(result);
  Fallthrough(std::move(s));
  return absl::OkStatus();
}

}  // namespace

// ---- Impl: execution support ----

absl::Status Machine::Impl::CheckDeadline() {
  if ((steps & 255) == 0 && std::chrono::steady_clock::now() > options.deadline) {
    return absl::DeadlineExceededError("time limit reached during symbolic execution");
  }
  return absl::OkStatus();
}

int Machine::Impl::SiteOf(const MethodInfo& method, uint32_t pc) {
  auto key = std::make_pair(&method, pc);
  auto it = site_ids_.find(key);
  if (it != site_ids_.end()) return it->second;
  Site site;
  site.method = &method;
  site.pc = pc;
  site.line = method.code().LineOf(pc);
  int index = method.code().IndexOfPc(pc);
  site.instruction = index >= 0 ? InstructionText(method, method.code().instructions[index]) : "?";
  int id = static_cast<int>(m.sites_.size());
  m.sites_.push_back(std::move(site));
  site_ids_.emplace(key, id);
  return id;
}

void Machine::Impl::AddObligation(ObligationKind kind, const z3::expr& condition, int site,
                                  std::string detail) {
  if (JavaOps::IsFalse(condition) || obligations == nullptr) return;
  obligations->push_back(Obligation{kind, condition, site, std::move(detail)});
}

ExitState Machine::Impl::Raise(const z3::expr& guard, const Heap& heap, const std::string& name,
                               int site) {
  int type = program.TypeIdOf(name);
  z3::expr ref = Allocate(type, std::nullopt, site);
  AddObligation(ObligationKind::kException, guard, site, classfile::InternalToBinary(name));
  return ExitState{guard, heap, Value{Kind::kRef, ref}};
}

namespace {

template <typename Get>
z3::expr MergeValues(const JavaOps& ops, const std::vector<z3::expr>& guards, Get get) {
  z3::expr acc = get(guards.size() - 1);
  for (size_t i = guards.size() - 1; i-- > 0;) acc = ops.Ite(guards[i], get(i), acc);
  return acc;
}

}  // namespace

State Machine::Impl::MergeStates(std::vector<State> states) {
  std::vector<z3::expr> guards;
  for (const State& s : states) guards.push_back(s.guard);
  State out = states[0];
  for (size_t i = 1; i < states.size(); ++i) out.guard = ops.Or(out.guard, states[i].guard);
  size_t locals = states[0].locals.size();
  for (size_t slot = 0; slot < locals; ++slot) {
    Kind kind = states[0].locals[slot].kind;
    bool same_kind = true;
    for (const State& s : states) same_kind &= slot < s.locals.size() && s.locals[slot].kind == kind;
    if (!same_kind || kind == Kind::kNone) {
      out.locals[slot] = Value{Kind::kNone, ops.Int(0)};
      continue;
    }
    out.locals[slot].e = MergeValues(ops, guards, [&](size_t i) { return states[i].locals[slot].e; });
  }
  for (size_t j = 0; j < out.stack.size(); ++j) {
    out.stack[j].e = MergeValues(ops, guards, [&](size_t i) { return states[i].stack[j].e; });
  }
  std::vector<ExitState> heaps;
  for (State& s : states) heaps.push_back(ExitState{s.guard, std::move(s.heap), std::nullopt});
  out.heap = MergeExits(std::move(heaps)).heap;
  return out;
}

ExitState Machine::Impl::MergeExits(std::vector<ExitState> exits) {
  if (exits.size() == 1) return std::move(exits[0]);
  std::vector<z3::expr> guards;
  for (const ExitState& e : exits) guards.push_back(e.guard);
  ExitState out{guards[0], Heap{}, std::nullopt};
  for (size_t i = 1; i < guards.size(); ++i) out.guard = ops.Or(out.guard, guards[i]);
  std::set<int> fields, statics, contents;
  std::set<std::string> inits;
  for (const ExitState& e : exits) {
    for (const auto& [k, v] : e.heap.fields) fields.insert(k);
    for (const auto& [k, v] : e.heap.statics) statics.insert(k);
    for (const auto& [k, v] : e.heap.contents) contents.insert(k);
    for (const auto& [k, v] : e.heap.initialized) inits.insert(k);
  }
  for (int f : fields) {
    out.heap.fields.emplace(f, MergeValues(ops, guards, [&](size_t i) {
                              return FieldArray(exits[i].heap, f);
                            }));
  }
  for (int f : statics) {
    const FieldInfo& field = program.Field(f);
    char d = field.descriptor[0];
    z3::expr def = ops.StoreAs(d, ops.Default(KindOfDescriptor(d)));
    out.heap.statics.emplace(f, MergeValues(ops, guards, [&](size_t i) {
                               auto it = exits[i].heap.statics.find(f);
                               return it == exits[i].heap.statics.end() ? def : it->second;
                             }));
  }
  for (int k : contents) {
    out.heap.contents.emplace(k, MergeValues(ops, guards, [&](size_t i) {
                                return ContentArray(exits[i].heap, static_cast<ElemKind>(k));
                              }));
  }
  for (const std::string& c : inits) {
    out.heap.initialized.emplace(c, MergeValues(ops, guards, [&](size_t i) {
                                   auto it = exits[i].heap.initialized.find(c);
                                   return it == exits[i].heap.initialized.end() ? ops.False()
                                                                                : it->second;
                                 }));
  }
  bool any_value = false;
  for (const ExitState& e : exits) any_value |= e.value.has_value();
  if (any_value) {
    Kind kind = Kind::kNone;
    for (const ExitState& e : exits) {
      if (e.value) kind = e.value->kind;
    }
    z3::expr def = ops.Default(kind);
    out.value = Value{kind, MergeValues(ops, guards, [&](size_t i) {
                        return exits[i].value ? exits[i].value->e : def;
                      })};
  }
  return out;
}

absl::StatusOr<CallResult> Machine::Impl::RunMethod(const MethodInfo& method, State entry) {
  MethodRun run(*this, method);
  return run.Run(std::move(entry));
}

absl::StatusOr<CallResult> Machine::Impl::Call(const CallTarget& target, const State& caller,
                                               int site, const std::vector<Value>& args,
                                               bool has_receiver) {
  switch (target.kind) {
    case CallTarget::Kind::kUnsupported:
      AddObligation(ObligationKind::kUnsupported, caller.guard, site, target.reason);
      return CallResult{};
    case CallTarget::Kind::kLibrary:
      return CallLibrary(target.library_key, caller, site, args);
    case CallTarget::Kind::kBytecode:
      break;
  }
  const MethodInfo& method = *target.method;
  int active = static_cast<int>(std::count(call_stack.begin(), call_stack.end(), &method));
  if (active > options.recursion) {
    AddObligation(ObligationKind::kRecursion, caller.guard, site,
                  absl::StrCat("recursion of ", method.DisplayName(), " deeper than ",
                               options.recursion));
    return CallResult{};
  }
  if (static_cast<int>(call_stack.size()) >= options.max_call_depth) {
    AddObligation(ObligationKind::kBound, caller.guard, site,
                  absl::StrCat("call depth above ", options.max_call_depth));
    return CallResult{};
  }
  if (!method.has_code()) {
    AddObligation(ObligationKind::kUnsupported, caller.guard, site,
                  absl::StrCat("call of ", method.DisplayName(), " without bytecode"));
    return CallResult{};
  }
  if (interceptor != nullptr) {
    CallSite call{&method, site, caller.guard, &caller.heap, std::nullopt, {}};
    size_t first = 0;
    if (has_receiver) {
      call.receiver = args[0];
      first = 1;
    }
    call.args.assign(args.begin() + first, args.end());
    TS_ASSIGN_OR_RETURN(std::optional<CallOutcome> outcome, interceptor->Intercept(m, call));
    if (outcome.has_value()) return CallResult{outcome->normal, outcome->exceptional};
  }
  State callee{caller.guard, caller.heap, {}, {}};
  callee.locals.assign(method.code().max_locals, Value{Kind::kNone, ops.Int(0)});
  size_t slot = 0;
  for (const Value& v : args) {
    if (slot + (v.wide() ? 2 : 1) > callee.locals.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(method.DisplayName(), ": max_locals smaller than the arguments"));
    }
    callee.locals[slot] = v;
    slot += v.wide() ? 2 : 1;
  }
  call_stack.push_back(&method);
  auto result = RunMethod(method, std::move(callee));
  call_stack.pop_back();
  return result;
}

bool Machine::Impl::IsInitializedInitially(const ClassInfo& cls) const {
  return !cls.needs_initialization && !(options.havoc_statics_after_init &&
                                        !program.StaticFields(&cls).empty());
}

absl::StatusOr<std::optional<State>> Machine::Impl::Initialize(State state, const ClassInfo& cls,
                                                               int site) {
  if (cls.origin != ClassInfo::Origin::kClassPath || IsInitializedInitially(cls)) return state;
  auto it = state.heap.initialized.find(cls.name);
  z3::expr done = it == state.heap.initialized.end() ? ops.False() : it->second;
  if (JavaOps::IsTrue(done)) return state;
  State skip = state;
  skip.guard = ops.And(state.guard, done);
  State run = std::move(state);
  run.guard = ops.And(run.guard, ops.Not(done));
  run.heap.initialized.insert_or_assign(cls.name, ops.True());
  if (!cls.is_interface && !cls.super_name.empty()) {
    const ClassInfo* super = program.FindClass(cls.super_name);
    if (super != nullptr) {
      TS_ASSIGN_OR_RETURN(std::optional<State> after, Initialize(std::move(run), *super, site));
      if (!after) {
        if (JavaOps::IsFalse(skip.guard)) return std::nullopt;
        return skip;
      }
      run = std::move(*after);
    }
  }
  // Static fields with a ConstantValue attribute get it before <clinit>
  // runs (JVM spec §5.5 step 6); javac emits no code for them.
  for (const FieldInfo* f : program.StaticFields(&cls)) {
    if (f->decl == nullptr || f->decl->constant_value_index == 0) continue;
    const classfile::CpEntry& c = cls.file->pool.at(f->decl->constant_value_index);
    std::optional<Value> v;
    switch (c.tag) {
      case classfile::CpTag::kInteger:
        v = Value{Kind::kInt,
                  ops.Int(static_cast<int32_t>(ConstantNumber(static_cast<int32_t>(c.bits32))))};
        break;
      case classfile::CpTag::kFloat: v = Value{Kind::kFloat, ops.FloatBits(c.bits32)}; break;
      case classfile::CpTag::kLong:
        v = Value{Kind::kLong, ops.Long(ConstantNumber(static_cast<int64_t>(c.bits64)))};
        break;
      case classfile::CpTag::kDouble: v = Value{Kind::kDouble, ops.DoubleBits(c.bits64)}; break;
      case classfile::CpTag::kString:
        v = Value{Kind::kRef,
                  StringLiteral(ConstantText(cls.file->pool.StringValue(f->decl->constant_value_index)))};
        break;
      default: break;
    }
    if (v) m.WriteStatic(run.heap, *f, *v);
  }
  const MethodInfo* clinit = program.FindDeclaredMethod(&cls, "<clinit>", "()V");
  if (clinit != nullptr && clinit->has_code()) {
    CallTarget target;
    target.kind = CallTarget::Kind::kBytecode;
    target.method = clinit;
    const uint32_t first_object = next_ref();
    TS_ASSIGN_OR_RETURN(CallResult r, Call(target, run, site, {}, false));
    if (next_ref() > first_object) {
      initializer_objects.push_back({first_object, next_ref(), cls.binary_name()});
    }
    if (r.exceptional) {
      AddObligation(ObligationKind::kUnsupported, r.exceptional->guard, site,
                    absl::StrCat("exception in the static initialiser of ", cls.binary_name()));
    }
    if (!r.normal) {
      run.guard = ops.False();
    } else {
      run.guard = r.normal->guard;
      run.heap = std::move(r.normal->heap);
    }
  }
  if (options.havoc_statics_after_init && !JavaOps::IsFalse(run.guard)) {
    for (const FieldInfo* f : program.StaticFields(&cls)) {
      if (f->is_final) continue;
      Value v = m.Fresh(f->descriptor, absl::StrCat("static!", f->owner, ".", f->name));
      m.WriteStatic(run.heap, *f, v);
      m.inputs_.push_back(InputEvent{InputEvent::Source::kStatic, v, run.guard, site,
                                     f->descriptor, f->DisplayName(), f});
    }
  }
  std::vector<State> parts;
  if (!JavaOps::IsFalse(run.guard)) parts.push_back(std::move(run));
  if (!JavaOps::IsFalse(skip.guard)) parts.push_back(std::move(skip));
  if (parts.empty()) return std::nullopt;
  if (parts.size() == 1) return std::move(parts[0]);
  return MergeStates(std::move(parts));
}

}  // namespace tracespec::symex
