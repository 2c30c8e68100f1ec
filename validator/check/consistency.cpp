// Consistency: the bytecode executed symbolically from every pre-state a
// spec case admits, and the solver asked for an exit that breaks the case
// (ensures, behavior kind, signals_only, signals, assignable, invariant) or
// for a clause that is undefined; see validator.h.
#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "validator/check/checks.h"
#include "validator/check/lowering.h"
#include "validator/classfile/descriptors.h"
#include "validator/jml/printer.h"
#include "validator/symex/length_cuts.h"
#include "validator/symex/machine.h"
#include "validator/symex/solver.h"

namespace tracespec::check {
namespace {

using Clock = std::chrono::steady_clock;
using symex::Machine;
using symex::ObligationKind;

std::string ClauseText(const jml::Clause& c) { return jml::PrintClause(c); }

// Why a counterexample breaks a clause, in words, when its values show one
// of Java's classic traps ("" otherwise): NaN compares unequal to
// everything, itself included; negation (and Math.abs) of the least int or
// long overflows back to it.
std::string JavaTrap(const std::string& values) {
  std::vector<std::string> why;
  if (absl::StrContains(values, "NaN")) {
    why.push_back("NaN is not equal to itself (==, <, <=, >, >= with NaN are false; != is true)");
  }
  if (absl::StrContains(values, "-2147483648")) {
    why.push_back("-2147483648 is Integer.MIN_VALUE, where -x overflows: -x and Math.abs(x) "
                  "give -2147483648 back");
  }
  if (absl::StrContains(values, "-9223372036854775808")) {
    why.push_back("-9223372036854775808 is Long.MIN_VALUE, where -x overflows: -x and "
                  "Math.abs(x) give it back");
  }
  return absl::StrJoin(why, "; ");
}

// Runs the queries of one execution and collects the findings.
class ConsistencyRun {
 public:
  ConsistencyRun(Machine& machine, const SpecUnderCheck& spec, const symex::EntryState& entry,
                 Clock::time_point deadline, double timeout)
      : machine_(machine),
        ops_(machine.ops()),
        spec_(spec),
        entry_(entry),
        deadline_(deadline),
        timeout_(timeout) {}

  CheckResult result;
  bool unknown = false;        // a query timed out or a construct is unsupported
  bool error = false;          // a clause has no meaning (kType)
  std::vector<std::string> unknown_reasons;
  std::vector<symex::Obligation> extra_obligations;  // of inlined pure calls
  // Where the state shown is when it is not an exit ("at the head of the
  // loop at line 12"; empty: an exit).
  std::string point;
  // There: the live locals (value, descriptor), shown with the values.
  std::map<std::string, std::pair<symex::Value, std::string>> loop_locals;

  // Solves `query` (with the machine's axioms, or `axioms` when given); on
  // sat returns the model.
  std::optional<z3::model> Sat(const z3::expr& query, bool* undecided,
                               const std::vector<z3::expr>* axioms = nullptr) {
    symex::SolveResult r = symex::Solve(machine_.ctx(), axioms ? *axioms : machine_.axioms(),
                                        query, deadline_, /*want_model=*/true);
    if (r.result == z3::unknown) {
      *undecided = true;
      return std::nullopt;
    }
    if (r.result == z3::sat) return std::move(r.model);
    return std::nullopt;
  }

  Clock::time_point deadline() const { return deadline_; }

  void NoteUnknown(const std::string& why) {
    unknown = true;
    unknown_reasons.push_back(why);
  }

  // A query about `clause` (null: an implicit one) the solver did not
  // decide; the first timeout names the clause it was working on.
  void Undecided(const jml::Clause* clause, const char* what = "a query") {
    if (Clock::now() < deadline_) {
      NoteUnknown(absl::StrCat("the solver could not decide ", what));
      return;
    }
    if (timed_out_) return;
    timed_out_ = true;
    std::string where =
        clause != nullptr
            ? absl::StrCat(" while checking ", ClauseText(*clause), " (line ", clause->span.line, ")")
            : "";
    NoteUnknown(absl::StrCat("timeout after ", timeout_, " s", where));
    // The clause, typed, for whoever revises the contract (the synthesizer
    // drops it and keeps what was proved).
    if (clause != nullptr) {
      Diagnostic d;
      d.kind = Diagnostic::Kind::kUndecided;
      d.span = clause->span;
      d.clause = ClauseText(*clause);
      d.message = absl::StrCat("not decided within the time limit (", timeout_, " s)");
      result.diagnostics.push_back(std::move(d));
    }
  }

  // A lowering failure: unsupported or out of range → UNKNOWN, a clause
  // without a meaning → ERROR.
  void LoweringFailed(const absl::Status& s, const jml::Clause* clause) {
    Diagnostic d;
    if (clause != nullptr) {
      d.span = clause->span;
      d.clause = ClauseText(*clause);
    }
    d.message = std::string(s.message());
    if (s.code() == absl::StatusCode::kDeadlineExceeded) {
      Undecided(clause);
      return;
    }
    if (s.code() == absl::StatusCode::kOutOfRange) {
      // Sound or UNKNOWN: a range the bounds cannot expand.
      d.kind = Diagnostic::Kind::kUnsupported;
      NoteUnknown(d.message);
    } else if (s.code() == absl::StatusCode::kUnimplemented) {
      // Valid JML without a lowering: UNKNOWN, naming the construct.
      d.kind = Diagnostic::Kind::kUnsupported;
      NoteUnknown(d.message);
    } else {
      d.kind = Diagnostic::Kind::kType;
      error = true;
    }
    result.diagnostics.push_back(std::move(d));
  }

  // Readable values of a model: arguments, the receiver's fields before
  // and after, the outcome.
  std::string Values(const z3::model& model, const symex::ExitState& exit, bool exceptional) {
    std::vector<std::string> parts;
    const symex::MethodInfo& m = *entry_.method;
    for (size_t i = 0; i < entry_.args.size(); ++i) {
      parts.push_back(absl::StrCat(entry_.arg_names[i], " = ",
                                   machine_.FormatValue(model, entry_.args[i],
                                                        m.signature.params[i])));
    }
    if (entry_.receiver && m.name != "<init>") {
      const symex::ClassInfo* cls = m.owner;
      for (const symex::FieldInfo* f : machine_.program().InstanceFields(cls)) {
        if (classfile::IsReference(f->descriptor)) continue;
        std::string before = machine_.FormatValue(
            model, machine_.ReadField(entry_.heap, entry_.receiver->e, *f), f->descriptor);
        std::string after = machine_.FormatValue(
            model, machine_.ReadField(exit.heap, entry_.receiver->e, *f), f->descriptor);
        parts.push_back(before == after ? absl::StrCat("this.", f->name, " = ", before)
                                        : absl::StrCat("this.", f->name, ": ", before, " -> ",
                                                       after));
      }
    }
    if (!point.empty()) {
      for (const auto& [name, local] : loop_locals) {
        if (name == "this" || std::find(entry_.arg_names.begin(), entry_.arg_names.end(), name) !=
                                  entry_.arg_names.end()) {
          continue;  // shown above
        }
        parts.push_back(absl::StrCat(name, " = ",
                                     machine_.FormatValue(model, local.first, local.second)));
      }
      parts.push_back(point);
    } else if (exceptional) {
      parts.push_back(absl::StrCat("throws ", machine_.TypeNameIn(model, exit.value->e)));
    } else if (exit.value) {
      parts.push_back(absl::StrCat("\\result = ",
                                   machine_.FormatValue(model, *exit.value, m.signature.ret)));
    } else {
      parts.push_back("returns normally");
    }
    return absl::StrJoin(parts, ", ");
  }

  // Records a counterexample and a diagnostic.
  void Violation(Diagnostic::Kind kind, const jml::Clause* clause, const std::string& message,
                 const z3::model& model, const symex::ExitState& exit, bool exceptional,
                 const std::string& detail = "") {
    Diagnostic d;
    d.kind = kind;
    if (clause != nullptr) {
      d.span = clause->span;
      d.clause = ClauseText(*clause);
    }
    d.message = message;
    auto obs = machine_.BuildObservation(model, entry_, exit, exceptional);
    if (obs.ok() && !point.empty()) obs->clear_outcome();  // not an exit
    if (obs.ok()) {
      d.counterexamples.push_back(static_cast<int>(result.counterexamples.size()));
      result.counterexamples.push_back(std::move(*obs));
      std::string values = Values(model, exit, exceptional);
      std::string text =
          clause != nullptr
              ? absl::StrCat(d.clause, " (line ", clause->span.line, "): ",
                             detail.empty() ? "" : absl::StrCat(detail, "; "), values)
              : absl::StrCat(message, ": ", values);
      // A frame is broken by what was written, not by how values compare.
      std::string trap = clause != nullptr && clause->kind == jml::ClauseKind::kAssignable
                             ? ""
                             : JavaTrap(values);
      if (!trap.empty()) {
        absl::StrAppend(&text, " (", trap, ")");
        absl::StrAppend(&d.message, " (", trap, ")");
      }
      result.explanations.push_back(std::move(text));
    }
    result.diagnostics.push_back(std::move(d));
  }

  // Asks for `query` (a violation); records it when sat.
  bool Ask(const z3::expr& query, Diagnostic::Kind kind, const jml::Clause* clause,
           const std::string& message, const symex::ExitState& exit, bool exceptional) {
    bool undecided = false;
    auto model = Sat(query, &undecided);
    if (undecided) {
      Undecided(clause);
      return false;
    }
    if (!model) return false;
    Violation(kind, clause, message, *model, exit, exceptional);
    return true;
  }

  // Well-definedness of one clause: `where` is the condition under which it
  // is evaluated; the counterexample ends at `exit`.
  void CheckDefined(const std::vector<Undefined>& undefined, const z3::expr& where,
                    const jml::Clause* clause, const symex::ExitState& exit, bool exceptional) {
    CheckDefined(undefined, where, clause, {{&exit, exceptional}});
  }
  // The same for a clause of the pre-state (`requires`): the counterexample
  // ends at whichever of `exits` its execution reaches.
  struct ExitRef {
    const symex::ExitState* exit;
    bool exceptional;
  };
  void CheckDefined(const std::vector<Undefined>& undefined, const z3::expr& where,
                    const jml::Clause* clause, const std::vector<ExitRef>& exits) {
    if (exits.empty()) return;
    z3::expr reached = ops_.False();
    for (const ExitRef& x : exits) reached = ops_.Or(reached, x.exit->guard);
    for (const Undefined& u : undefined) {
      bool undecided = false;
      auto model = Sat(ops_.And(ops_.And(where, reached), u.open), &undecided);
      if (undecided) {
        Undecided(clause);
        continue;
      }
      if (!model) continue;
      std::vector<std::string> values;
      for (const auto& [name, var] : u.vars) {
        z3::expr v = model->eval(var, true);
        auto bits = symex::JavaOps::BvValue(v);
        std::string text = v.to_string();
        if (bits && v.get_sort().bv_size() == 32) text = absl::StrCat(static_cast<int32_t>(*bits));
        if (bits && v.get_sort().bv_size() == 64) text = absl::StrCat(static_cast<int64_t>(*bits));
        values.push_back(absl::StrCat(name, " = ", text));
      }
      std::string message = absl::StrCat("may be undefined: ", u.what);
      if (!values.empty()) absl::StrAppend(&message, " (with ", absl::StrJoin(values, ", "), ")");
      const ExitRef* at = &exits.front();
      for (const ExitRef& x : exits) {
        if (model->eval(x.exit->guard, true).is_true()) {
          at = &x;
          break;
        }
      }
      Violation(Diagnostic::Kind::kWellDefinedness, clause, message, *model, *at->exit,
                at->exceptional, message);
      return;  // one counterexample per clause
    }
  }

  // The frame of `assignable` (union of the clauses) against `exit`.
  void CheckFrame(const std::vector<const jml::Clause*>& assignable, const z3::expr& where,
                  Lowering& lowering, const symex::ExitState& exit, bool exceptional) {
    if (assignable.empty()) return;  // JML's default: \everything
    std::vector<const jml::StoreRef*> refs;
    for (const jml::Clause* c : assignable) {
      for (const jml::StoreRef& r : c->store_refs) {
        if (r.kind == jml::StoreRef::Kind::kEverything ||
            r.kind == jml::StoreRef::Kind::kNotSpecified) {
          return;
        }
        refs.push_back(&r);
      }
    }
    struct Change {
      std::string location;
      z3::expr condition;
      z3::expr object;
      const symex::FieldInfo* field;
      std::optional<z3::expr> index;
      symex::ElemKind kind;
    };
    std::vector<Change> changes;
    int n = 0;
    z3::context& ctx = machine_.ctx();
    // Only objects that existed at entry are in a frame: the writes at new
    // objects are left out of the query.
    for (const auto& [id, written] : exit.heap.fields) {
      z3::expr before = machine_.FieldStore(entry_.heap, id);
      z3::expr store = machine_.WithoutNewObjects(written);
      if (symex::JavaOps::Same(before, store)) continue;
      const symex::FieldInfo& f = machine_.program().Field(id);
      z3::expr r = ctx.bv_const(absl::StrCat("frame!r", n++).c_str(), symex::kRefBits);
      // Types the value at entry (an input: null or an object of the
      // field's type), which the explanation shows.
      machine_.ReadField(entry_.heap, r, f);
      z3::expr changed = !(z3::select(store, r) == z3::select(before, r));
      z3::expr in = ops_.False();
      for (const jml::StoreRef* ref : refs) {
        auto c = lowering.FieldInFrame(*ref, r, id);
        if (!c.ok()) return LoweringFailed(c.status(), assignable[0]);
        in = ops_.Or(in, *c);
      }
      z3::expr cond = ops_.And(ops_.And(machine_.ExistedAtEntry(r), changed), ops_.Not(in));
      changes.push_back(Change{f.DisplayName(), cond, r, &f, std::nullopt, f.kind()});
    }
    for (const auto& [id, value] : exit.heap.statics) {
      const symex::FieldInfo& f = machine_.program().Field(id);
      auto init = entry_.heap.initialized.find(f.owner);
      if (init == entry_.heap.initialized.end()) continue;  // initialised by the call
      z3::expr before = machine_.ReadStatic(entry_.heap, f).e;
      z3::expr after = machine_.ReadStatic(exit.heap, f).e;
      if (symex::JavaOps::Same(before, after)) continue;
      z3::expr in = ops_.False();
      for (const jml::StoreRef* ref : refs) {
        auto c = lowering.StaticInFrame(*ref, id);
        if (!c.ok()) return LoweringFailed(c.status(), assignable[0]);
        in = ops_.Or(in, *c);
      }
      z3::expr changed = f.kind() == symex::ElemKind::kFloat || f.kind() == symex::ElemKind::kDouble
                             ? !(z3::expr(ctx, Z3_mk_fpa_to_ieee_bv(ctx, before)) ==
                                 z3::expr(ctx, Z3_mk_fpa_to_ieee_bv(ctx, after)))
                             : !(before == after);
      z3::expr cond = ops_.And(ops_.And(init->second, changed), ops_.Not(in));
      changes.push_back(Change{f.DisplayName(), cond, ops_.Null(), &f, std::nullopt, f.kind()});
    }
    for (const auto& [kind, written] : exit.heap.contents) {
      z3::expr before = machine_.ContentStore(entry_.heap, static_cast<symex::ElemKind>(kind));
      z3::expr store = machine_.WithoutNewObjects(written);
      if (symex::JavaOps::Same(before, store)) continue;
      z3::expr r = ctx.bv_const(absl::StrCat("frame!a", n).c_str(), symex::kRefBits);
      z3::expr i = ctx.bv_const(absl::StrCat("frame!i", n++).c_str(), 32);
      z3::expr changed = !(z3::select(z3::select(store, r), i) == z3::select(z3::select(before, r), i));
      z3::expr in = ops_.False();
      for (const jml::StoreRef* ref : refs) {
        auto c = lowering.ElementInFrame(*ref, r, i);
        if (!c.ok()) return LoweringFailed(c.status(), assignable[0]);
        in = ops_.Or(in, *c);
      }
      z3::expr bounds = ops_.And(ops_.Le(ops_.Int(0), i), ops_.Lt(i, machine_.ArrayLength(r)));
      z3::expr cond = ops_.And(ops_.And(machine_.ExistedAtEntry(r), bounds),
                               ops_.And(changed, ops_.Not(in)));
      changes.push_back(Change{"array element", cond, r, nullptr, i,
                               static_cast<symex::ElemKind>(kind)});
    }
    if (changes.empty()) return;
    z3::expr any = ops_.False();
    for (const Change& c : changes) any = ops_.Or(any, c.condition);
    bool undecided = false;
    auto asked = Clock::now();
    auto model = Sat(ops_.And(where, any), &undecided);
    result.frame_seconds = std::max(
        result.frame_seconds, std::chrono::duration<double>(Clock::now() - asked).count());
    if (undecided) {
      Undecided(assignable[0], "the frame query");
      return;
    }
    if (!model) return;
    // Name every location outside the frame that changed in this model.
    std::vector<std::string> named;
    for (const Change& c : changes) {
      if (!model->eval(c.condition, true).is_true()) continue;
      if (c.field != nullptr && c.field->is_static) {
        named.push_back(absl::StrCat(c.field->DisplayName(), " changed from ",
                                     Show(*model, machine_.ReadStatic(entry_.heap, *c.field),
                                          c.field->descriptor),
                                     " to ",
                                     Show(*model, machine_.ReadStatic(exit.heap, *c.field),
                                          c.field->descriptor)));
        continue;
      }
      z3::expr ref = model->eval(c.object, true);
      std::string owner = DescribeObject(*model, ref);
      if (c.field != nullptr) {
        named.push_back(absl::StrCat(
            owner, ".", c.field->name, " changed from ",
            Show(*model, machine_.ReadField(entry_.heap, ref, *c.field), c.field->descriptor),
            " to ", Show(*model, machine_.ReadField(exit.heap, ref, *c.field), c.field->descriptor)));
      } else {
        z3::expr idx = model->eval(*c.index, true);
        auto iv = symex::JavaOps::BvValue(idx);
        named.push_back(absl::StrCat(owner, "[", iv ? static_cast<int32_t>(*iv) : 0, "] changed"));
      }
    }
    std::string detail = absl::StrCat("not assignable: ", absl::StrJoin(named, "; "));
    Diagnostic::Kind kind = Diagnostic::Kind::kViolated;
    Violation(kind, assignable[0], detail, *model, exit, exceptional, detail);
  }

  // A value in a model; objects the execution created read "a new C".
  std::string Show(const z3::model& model, const symex::Value& v, const std::string& descriptor) {
    if (v.kind == symex::Kind::kRef &&
        model.eval(ops_.Not(ops_.Eq(v.e, ops_.Null())), true).is_true() &&
        !model.eval(machine_.ExistedAtEntry(v.e), true).is_true()) {
      return absl::StrCat("a new ", machine_.TypeNameIn(model, v.e));
    }
    return machine_.FormatValue(model, v, descriptor);
  }

  // "this", a parameter, "this.f" for a reference field of the receiver,
  // else "object #ref".
  std::string DescribeObject(const z3::model& model, const z3::expr& ref) {
    auto same = [&](const z3::expr& other) {
      return model.eval(ops_.Eq(ref, other), true).is_true();
    };
    if (entry_.receiver && same(entry_.receiver->e)) return "this";
    for (size_t i = 0; i < entry_.args.size(); ++i) {
      if (entry_.args[i].kind == symex::Kind::kRef && same(entry_.args[i].e)) return entry_.arg_names[i];
    }
    if (entry_.receiver) {
      for (const symex::FieldInfo* f : machine_.program().InstanceFields(entry_.method->owner)) {
        if (!classfile::IsReference(f->descriptor)) continue;
        if (same(machine_.ReadField(entry_.heap, entry_.receiver->e, *f).e)) {
          return absl::StrCat("this.", f->name);
        }
      }
    }
    auto v = symex::JavaOps::BvValue(ref);
    return absl::StrCat("object ", machine_.TypeNameIn(model, ref), "@", v ? *v : 0);
  }

  Machine& machine_;
  const symex::JavaOps& ops_;
  const SpecUnderCheck& spec_;
  const symex::EntryState& entry_;
  Clock::time_point deadline_;
  double timeout_;
  bool timed_out_ = false;
};

// Classes of the static fields an expression reads.
void CollectStaticOwners(const jml::Expr& e, std::set<std::string>* out) {
  if (e.sym.kind == jml::SymbolKind::kField && e.sym.is_static) out->insert(e.sym.owner);
  for (const auto& op : e.operands) CollectStaticOwners(*op, out);
  for (const jml::StoreRef& r : e.store_refs) {
    if (r.expr) CollectStaticOwners(*r.expr, out);
  }
}

// The states at the loop heads of an execution.
class LoopSnapshots : public symex::LoopHeadObserver {
 public:
  struct Snapshot {
    const symex::MethodInfo* method;
    uint32_t pc;
    z3::expr guard;
    symex::Heap heap;
    std::vector<symex::Value> locals;
    std::map<std::string, Term> ghosts;  // ghost locals by name (BodyStatements)
  };
  void AtLoopHead(const symex::MethodInfo& method, uint32_t pc, const z3::expr& guard,
                  const symex::Heap& heap, const std::vector<symex::Value>& locals) override {
    snapshots.push_back(Snapshot{&method, pc, guard, heap, locals,
                                 ghosts != nullptr ? *ghosts : std::map<std::string, Term>{}});
  }
  z3::expr AssumedAtHead(const symex::MethodInfo& method, uint32_t pc, const z3::expr& guard,
                         const symex::Heap& heap,
                         const std::vector<symex::Value>& locals) override {
    if (!assume) return guard.ctx().bool_val(true);
    return assume(Snapshot{&method, pc, guard, heap, locals,
                           ghosts != nullptr ? *ghosts : std::map<std::string, Term>{}});
  }
  std::vector<Snapshot> snapshots;
  const std::map<std::string, Term>* ghosts = nullptr;  // their values as the run goes
  // In the induction step: what the havocked state at a loop head may
  // assume (unset: nothing).
  std::function<z3::expr(const Snapshot&)> assume;
};

// The statements of the method body — assert, assume, ghost declarations
// and set — each at the first instruction of the line it precedes: every
// arrival (within the bounds) is kept, an assume narrows the executions
// that go on from there, and ghost locals take their values as the
// execution goes (merged by the path conditions of the arrivals).
class BodyStatements : public symex::PointObserver {
 public:
  struct Arrival {
    const jml::BodyAnnotation* statement;
    LoopSnapshots::Snapshot state;  // the ghost values before the statement
  };
  // `assume` lowers an assume statement at its arrival; `ghost` the value a
  // ghost declaration or set gives (nullopt: it could not be lowered).
  BodyStatements(const symex::MethodInfo& method, const symex::JavaOps& ops,
                 std::function<z3::expr(const Arrival&)> assume,
                 std::function<std::optional<Term>(const Arrival&)> ghost)
      : method_(method), ops_(ops), assume_(std::move(assume)), ghost_(std::move(ghost)) {}
  void Add(uint32_t pc, const jml::BodyAnnotation* statement) { at_[pc].push_back(statement); }
  bool empty() const { return at_.empty(); }
  const std::map<std::string, Term>& ghosts() const { return ghosts_; }
  // A ghost value before the first statement (the receiver's ghost fields
  // at entry, "this.<name>").
  void Seed(const std::string& key, Term value) { ghosts_.insert_or_assign(key, std::move(value)); }

  bool Watches(const symex::MethodInfo& method, uint32_t pc) const override {
    return &method == &method_ && at_.count(pc) > 0;
  }
  z3::expr AtPoint(const symex::MethodInfo& method, uint32_t pc, const z3::expr& guard,
                   const symex::Heap& heap, const std::vector<symex::Value>& locals) override {
    z3::expr assumed = ops_.True();
    for (const jml::BodyAnnotation* a : at_[pc]) {
      z3::expr here = ops_.And(guard, assumed);
      arrivals.push_back(Arrival{a, {&method, pc, here, heap, locals, ghosts_}});
      if (a->kind == jml::BodyAnnotationKind::kAssume) {
        assumed = ops_.And(assumed, assume_(arrivals.back()));
      } else if (a->kind == jml::BodyAnnotationKind::kGhostDecl ||
                 a->kind == jml::BodyAnnotationKind::kSet) {
        std::optional<Term> value = ghost_(arrivals.back());
        std::string name = a->kind != jml::BodyAnnotationKind::kSet ? a->ghost_name
                           : a->target->sym.kind == jml::SymbolKind::kField
                               ? absl::StrCat("this.", a->target->name)
                               : a->target->name;
        if (!value) {  // no value from here on rather than a stale one
          ghosts_.erase(name);
          continue;
        }
        auto old = ghosts_.find(name);
        if (old == ghosts_.end()) {
          ghosts_.emplace(name, std::move(*value));
        } else {
          old->second = Term{value->type, ops_.Ite(here, value->e, old->second.e)};
        }
      }
    }
    return assumed;
  }
  std::vector<Arrival> arrivals;

 private:
  const symex::MethodInfo& method_;
  const symex::JavaOps& ops_;
  std::function<z3::expr(const Arrival&)> assume_;
  std::function<std::optional<Term>(const Arrival&)> ghost_;
  std::map<uint32_t, std::vector<const jml::BodyAnnotation*>> at_;
  std::map<std::string, Term> ghosts_;
};

// Where a statement annotation of the body takes effect: the first
// instruction of the line it precedes; when that line has no code (a
// declaration without a value, a closing brace), the instruction after the
// code of the last line before the annotation, or the method's first one
// when there is none. Nullopt when that is not a place only the code
// before reaches: the code ends in a jump, or the next instruction is also
// reached from elsewhere (a join, e.g. after an if without else).
std::optional<uint32_t> PointOf(const symex::MethodInfo& method, const jml::BodyAnnotation& a) {
  if (!method.has_code()) return std::nullopt;
  const classfile::Code& code = method.code();
  if (code.instructions.empty()) return std::nullopt;
  int before = 0;  // the last line with code before the annotation
  for (const classfile::Instruction& ins : code.instructions) {
    int line = static_cast<int>(code.LineOf(ins.pc));
    if (line == a.next_code_line && a.next_code_line > 0) return ins.pc;
    if (line < a.span.line) before = std::max(before, line);
  }
  if (before == 0) return code.instructions.front().pc;
  const classfile::Instruction* last = nullptr;
  for (const classfile::Instruction& ins : code.instructions) {
    if (static_cast<int>(code.LineOf(ins.pc)) == before) last = &ins;
  }
  switch (last->opcode) {
    case classfile::kGoto: case classfile::kGotoW: case classfile::kAthrow:
    case classfile::kTableswitch: case classfile::kLookupswitch:
    case classfile::kIreturn: case classfile::kLreturn: case classfile::kFreturn:
    case classfile::kDreturn: case classfile::kAreturn: case classfile::kReturn:
      return std::nullopt;
    default:
      break;
  }
  uint32_t next = last->pc + last->length;
  if (code.IndexOfPc(next) < 0) return std::nullopt;
  for (const classfile::ExceptionHandler& h : code.handlers) {
    if (h.handler_pc == next) return std::nullopt;
  }
  for (const classfile::Instruction& ins : code.instructions) {
    for (uint32_t t : classfile::JumpTargets(ins)) {
      if (t == next) return std::nullopt;
    }
  }
  return next;
}

// The locals of `method` live at `pc` (value and descriptor), by name, from
// the LocalVariableTable.
std::map<std::string, std::pair<symex::Value, std::string>> LiveLocals(
    const symex::MethodInfo& method, uint32_t pc, const std::vector<symex::Value>& slots) {
  std::map<std::string, std::pair<symex::Value, std::string>> out;
  for (const classfile::LocalVariable& lv : method.code().locals) {
    if (pc < lv.start_pc || pc >= lv.start_pc + lv.length || lv.slot >= slots.size()) continue;
    if (slots[lv.slot].kind == symex::Kind::kNone) continue;
    out.insert_or_assign(lv.name, std::make_pair(slots[lv.slot], lv.descriptor));
  }
  return out;
}

bool IsExceptionalBehavior(jml::Behavior b) {
  return b == jml::Behavior::kExceptional || b == jml::Behavior::kExceptionalExample;
}
bool IsNormalBehavior(jml::Behavior b) {
  return b == jml::Behavior::kNormal || b == jml::Behavior::kNormalExample;
}
bool IsGhostStatement(const jml::BodyAnnotation* a) {
  return a->kind == jml::BodyAnnotationKind::kGhostDecl || a->kind == jml::BodyAnnotationKind::kSet;
}

// Cuts: the bound L on the lengths of input arrays and strings when some
// admitted pre-state (under `any_pre`) has a longer one whose length was
// read (symex::InputLengthCuts, shared with `verify`; also in
// `*input_cuts`, which an induction step cannot remove), each loop /
// recursion / bound site whose cut some admitted execution reaches, and
// whether an unsupported construct is reachable (noted in `q`). Fills
// `r->cuts` and `r->complete`.
void FindCuts(ConsistencyRun& q, Machine& machine, const std::vector<symex::Obligation>& obligations,
              const z3::expr& any_pre, int unwind, int max_array, CheckResult* r,
              std::vector<std::string>* input_cuts) {
  const symex::JavaOps& ops = machine.ops();
  {
    z3::expr unsupported = symex::AnyObligation(ops, obligations, {ObligationKind::kUnsupported});
    bool undecided = false;
    auto model = q.Sat(ops.And(any_pre, unsupported), &undecided);
    if (undecided) q.Undecided(nullptr, "whether an unsupported construct is reached");
    if (model) {
      const symex::Obligation* o =
          symex::WitnessObligation(*model, obligations, {ObligationKind::kUnsupported});
      std::string what = o == nullptr ? "unsupported construct"
                                      : absl::StrCat(o->detail, " at ",
                                                     machine.sites()[o->site].Describe());
      Diagnostic d;
      d.kind = Diagnostic::Kind::kUnsupported;
      d.message = absl::StrCat("reachable: ", what);
      r->diagnostics.push_back(d);
      q.NoteUnknown(what);
    }
  }
  *input_cuts = symex::InputLengthCuts(machine, any_pre, max_array, q.deadline());
  r->cuts.insert(r->cuts.end(), input_cuts->begin(), input_cuts->end());
  std::map<int, std::vector<const symex::Obligation*>> by_site;
  for (const symex::Obligation& o : obligations) {
    if (o.kind == ObligationKind::kUnwinding || o.kind == ObligationKind::kRecursion ||
        o.kind == ObligationKind::kBound) {
      by_site[o.site].push_back(&o);
    }
  }
  for (const auto& [site, list] : by_site) {
    z3::expr reach = ops.False();
    for (const symex::Obligation* o : list) reach = ops.Or(reach, o->condition);
    bool undecided = false;
    auto model = q.Sat(ops.And(any_pre, reach), &undecided);
    const symex::Obligation& o = *list[0];
    const symex::Site& s = machine.sites()[site];
    std::string what = o.kind == ObligationKind::kUnwinding
                           ? absl::StrCat("loop at line ", s.line, " cut at k=", unwind)
                       : o.kind == ObligationKind::kRecursion
                           ? absl::StrCat("recursion at line ", s.line, " cut at depth ", unwind)
                           : o.detail;
    if (undecided) what = absl::StrCat(what, " (maybe)");
    if (model || undecided) r->cuts.push_back(what);
  }
  r->complete = r->cuts.empty();
}

// The verdict from the findings: FAIL when a clause is violated or may be
// undefined, else ERROR when a clause has no meaning, else UNKNOWN (timeout,
// unsupported), else PASS — complete, or within the bounds of `r->cuts`.
void DecideVerdict(const ConsistencyRun& q, CheckResult* r) {
  int violations = 0;
  const Diagnostic* first = nullptr;
  for (const Diagnostic& d : r->diagnostics) {
    if (d.kind == Diagnostic::Kind::kViolated || d.kind == Diagnostic::Kind::kWellDefinedness) {
      if (first == nullptr) first = &d;
      ++violations;
    }
  }
  if (violations > 0) {
    r->status = CheckStatus::kFail;
    std::string what = first->clause.empty() ? first->message
                                             : absl::StrCat(first->clause, " (line ",
                                                            first->span.line, ")");
    if (first->kind == Diagnostic::Kind::kWellDefinedness) what = absl::StrCat(what, " may be undefined");
    r->summary = violations == 1 ? what : absl::StrCat(what, " and ", violations - 1, " more");
  } else if (q.error) {
    r->status = CheckStatus::kError;
    r->summary = "a clause cannot be checked";
    for (const Diagnostic& d : r->diagnostics) {
      if (d.kind == Diagnostic::Kind::kType) {
        r->summary = d.message;
        break;
      }
    }
  } else if (q.unknown) {
    r->status = CheckStatus::kUnknown;
    std::vector<std::string> reasons(q.unknown_reasons.begin(), q.unknown_reasons.end());
    std::sort(reasons.begin(), reasons.end());
    reasons.erase(std::unique(reasons.begin(), reasons.end()), reasons.end());
    r->summary = absl::StrJoin(reasons, "; ");
  } else {
    r->status = CheckStatus::kPass;
    r->summary = r->complete ? "complete"
                             : absl::StrCat("within bounds: ", absl::StrJoin(r->cuts, ", "));
  }
}

// One consistency check, stage by stage: the entry state (SetUpEntry), the
// body statements placed in the bytecode and the symbolic execution
// (PlaceBodyStatements, Execute), the queries of each spec case at the
// normal and the exceptional exit (CheckCase), the body annotations at the
// points the execution reached (CheckLoopInvariants, CheckBodyStatements),
// then the cuts and the verdict (FindCuts, DecideVerdict).
class ConsistencyCheck {
 public:
  // With `induction`, the run is an induction step (symex::ExecOptions::
  // induction) without those candidate invariants: its findings are not
  // counterexamples, only "every loop closed" (a complete PASS) counts.
  ConsistencyCheck(symex::Program& program, const symex::MethodInfo& method,
                   const SpecUnderCheck& spec, const ValidateRequest& request,
                   const std::set<std::string>* induction = nullptr)
      : induction_(induction),
        program_(program),
        method_(method),
        spec_(spec),
        mctx_(*spec.context),
        request_(request),
        start_(Clock::now()),
        deadline_(start_ + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(request.timeout_seconds))),
        machine_(ctx_, program, Options(request, deadline_, induction)),
        ops_(machine_.ops()),
        any_pre_(ops_.False()),
        implicit_(ops_.True()) {}

  absl::StatusOr<CheckResult> Run() {
    absl::Status s = SetUpEntry();
    if (s.ok()) s = PlaceBodyStatements();
    if (s.ok()) s = Execute();
    if (!s.ok()) {
      if (s.code() != absl::StatusCode::kDeadlineExceeded) return s;
      CheckResult r;  // a stage ran out of time: UNKNOWN, naming the stage
      r.status = CheckStatus::kUnknown;
      r.summary = absl::StrCat("timeout after ", request_.timeout_seconds, " s ", s.message());
      return Finish(std::move(r));
    }
    q_.emplace(machine_, spec_, *entry_, deadline_, request_.timeout_seconds);
    SetUpImplicitPre();
    for (const jml::FlatCase& c : spec_.cases) CheckCase(c);
    CheckLoopInvariants();
    CheckBodyStatements();
    std::vector<symex::Obligation> obligations = run_->obligations;
    for (const symex::Obligation& o : q_->extra_obligations) obligations.push_back(o);
    if (induction_ != nullptr) CheckCandidateInvariants(obligations);
    CheckResult& r = q_->result;
    FindCuts(*q_, machine_, obligations, any_pre_, request_.unwind, request_.max_array, &r,
             &input_cuts_);
    DecideVerdict(*q_, &r);
    if (r.status == CheckStatus::kPass && induction_ == nullptr) NothingChecked(&r);
    return Finish(std::move(r));
  }

  // Induction step: the candidate invariants that held, and those that may
  // fail where their loop is entered or at a back edge (under some case's
  // precondition).
  const std::set<std::string>& held_invariants() const { return held_invariants_; }
  const std::set<std::string>& failed_invariants() const { return failed_invariants_; }
  // The cuts (in CheckResult::cuts) of the bound on input lengths, which no
  // induction step removes.
  const std::vector<std::string>& input_cuts() const { return input_cuts_; }
  // The verdict is UNKNOWN because no pre-state within the bounds satisfies
  // the preconditions (NothingChecked).
  bool nothing_checked() const { return nothing_checked_; }

 private:
  // What a spec case assumes at entry.
  struct CasePre {
    z3::expr pre;                                          // entry guard, implicit, requires, invariants
    std::vector<std::pair<std::string, Term>> vars;        // spec-case variables
    std::vector<const jml::Clause*> assignable;
  };
  // assume, ghost declarations and set, lowered when the execution reaches
  // them; their failures and well-definedness are reported after the run.
  struct Lowered {
    absl::Status status;
    std::vector<Undefined> undefined;
    std::vector<symex::Obligation> obligations;
  };

  void CheckCandidateInvariants(const std::vector<symex::Obligation>& obligations) {
    std::map<std::string, z3::expr> candidates;
    for (const symex::Obligation& o : obligations) {
      if (o.kind != ObligationKind::kInvariant) continue;
      auto it = candidates.find(o.detail);
      if (it == candidates.end()) candidates.emplace(o.detail, o.condition);
      else it->second = ops_.Or(it->second, o.condition);
    }
    for (const auto& [text, condition] : candidates) {
      bool undecided = false;
      auto model = q_->Sat(ops_.And(any_pre_, condition), &undecided);
      (model || undecided ? failed_invariants_ : held_invariants_).insert(text);
    }
  }

  // A PASS where no pre-state (within the bounds on input lengths) satisfies
  // any spec case's precondition checked no execution: UNKNOWN, saying so,
  // never PASS.
  void NothingChecked(CheckResult* r) {
    bool undecided = false;
    if (q_->Sat(any_pre_, &undecided) || undecided) return;
    nothing_checked_ = true;
    r->status = CheckStatus::kUnknown;
    r->complete = false;
    r->cuts.clear();
    r->summary =
        spec_.cases.empty()
            ? "nothing was checked: the contract has no specification case for this method"
            : absl::StrCat("nothing was checked: no pre-state satisfies the preconditions ",
                           "(requires clauses) with input arrays and strings of at most ",
                           request_.max_array, " elements");
  }

  static symex::ExecOptions Options(const ValidateRequest& request, Clock::time_point deadline,
                                    const std::set<std::string>* induction) {
    symex::ExecOptions eo;
    eo.unwind = request.unwind;
    eo.recursion = request.unwind;
    eo.max_array = request.max_array;
    eo.deadline = deadline;
    eo.substitute_numbers = request.substitute_numbers;
    eo.substitute_texts = request.substitute_texts;
    if (induction != nullptr) {
      eo.induction = true;
      eo.dropped_invariants = *induction;
    }
    return eo;
  }

  // A machine status: a deadline names the stage that ran out of time.
  static absl::Status Stage(absl::Status s, const char* where) {
    if (s.code() == absl::StatusCode::kDeadlineExceeded) return absl::DeadlineExceededError(where);
    return s;
  }

  CheckResult Finish(CheckResult r) const {
    r.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    return r;
  }

  // ---- Entry set-up --------------------------------------------------------

  // The free entry state; classes whose static fields the specification
  // reads are initialised in it (their fields then hold any value after
  // <clinit>).
  absl::Status SetUpEntry() {
    auto entry_or = machine_.CreateEntry(method_);
    if (!entry_or.ok()) return Stage(entry_or.status(), "while building the entry state");
    entry_.emplace(std::move(*entry_or));
    std::set<std::string> owners;
    for (const jml::FlatCase& c : spec_.cases) {
      for (const jml::Clause* cl : c.clauses) {
        if (cl->pred) CollectStaticOwners(*cl->pred, &owners);
      }
    }
    for (const jml::ClassClause* inv : spec_.invariants) CollectStaticOwners(*inv->pred, &owners);
    for (const std::string& owner : owners) {
      const symex::ClassInfo* cls = program_.FindClass(classfile::BinaryToInternal(owner));
      if (cls == nullptr || cls->origin != symex::ClassInfo::Origin::kClassPath) continue;
      absl::Status init = machine_.EnsureInitialized(*entry_, *cls);
      if (!init.ok()) return Stage(init, "while initialising classes");
    }
    pre_states_.pre = &entry_->heap;
    pre_states_.receiver = entry_->receiver;
    pre_states_.args = entry_->args;
    SetUpGhostFields();
    return absl::OkStatus();
  }

  // The receiver's ghost fields at entry: any value for a method (its
  // invariants and requires say which); for a constructor the field's
  // initializer, or the default value of its type.
  void SetUpGhostFields() {
    if (!entry_->receiver) return;
    for (const jml::FieldDecl* f : spec_.ghost_fields) {
      if (spec_.env == nullptr) break;
      auto found = jml::LookupField(*spec_.env, mctx_.class_name, f->name);
      if (!found || !found->field->is_ghost) continue;
      const jml::Type t = found->field->type;
      if (!t.IsPrimitive() && !t.IsReference()) continue;  // no value: reads are unsupported
      Lowering lowering(machine_, mctx_, pre_states_, entry_->guard, deadline_);
      std::string d = t.Descriptor();
      if (!IsConstructor()) {
        pre_states_.ghost_pre.emplace(
            f->name, lowering.FromValue(machine_.Fresh(d, absl::StrCat("ghost!", f->name)), t));
      } else if (f->init) {
        auto v = lowering.ValueAs(*f->init, /*in_post=*/false, t);
        if (v.ok()) pre_states_.ghost_pre.emplace(f->name, *v);
      } else {
        z3::expr zero = t.IsBoolean()          ? ops_.False()
                        : t.Is(jml::Type::Kind::kLong)   ? ops_.Long(0)
                        : t.Is(jml::Type::Kind::kFloat)  ? ops_.Float(0)
                        : t.Is(jml::Type::Kind::kDouble) ? ops_.Double(0)
                        : t.IsReference()                ? ops_.Null()
                                                         : ops_.Int(0);
        pre_states_.ghost_pre.emplace(f->name, Term{t, zero});
      }
    }
  }

  // Implicit preconditions: non_null reference parameters, and the
  // reference fields of the receiver, non_null unless declared nullable
  // (JML's default): an implicit invariant, assumed at entry (not for
  // constructors) and checked at normal exits.
  void SetUpImplicitPre() {
    const symex::EntryState& entry = *entry_;
    for (size_t i = 0; i < mctx_.param_nullity.size() && i < entry.args.size(); ++i) {
      if (mctx_.param_nullity[i] == jml::Nullity::kNonNull &&
          entry.args[i].kind == symex::Kind::kRef) {
        implicit_ = ops_.And(implicit_, ops_.Not(ops_.Eq(entry.args[i].e, ops_.Null())));
      }
    }
    if (entry.receiver && spec_.env != nullptr) {
      for (const symex::FieldInfo* f : program_.InstanceFields(method_.owner)) {
        if (!classfile::IsReference(f->descriptor) || f->is_synthetic || f->decl == nullptr) continue;
        auto found = jml::LookupField(*spec_.env, classfile::InternalToBinary(f->owner), f->name);
        if (found && found->field->nullity == jml::Nullity::kNullable) continue;
        non_null_fields_.push_back(f);
      }
    }
    if (!IsConstructor()) {
      for (const symex::FieldInfo* f : non_null_fields_) {
        z3::expr v = machine_.ReadField(entry.heap, entry.receiver->e, *f).e;
        implicit_ = ops_.And(implicit_, ops_.Not(ops_.Eq(v, ops_.Null())));
      }
    }
  }

  bool IsConstructor() const { return method_.name == "<init>"; }

  // ---- Body statements and the execution -----------------------------------

  // The state at a point of the body (loop head, assert, assume) for
  // specification expressions: the locals live there by name, `\old` the
  // method's pre-state.
  LowerStates StatesAt(const LoopSnapshots::Snapshot& snap) const {
    LowerStates st = pre_states_;
    st.post = &snap.heap;
    for (const auto& [name, local] : LiveLocals(method_, snap.pc, snap.locals)) {
      st.locals.emplace(name, local.first);
    }
    st.ghost_post = GhostFieldsIn(snap.ghosts);
    return st;
  }
  // The receiver's ghost fields among the ghost values of the body (keys
  // GhostFieldKey).
  static std::map<std::string, Term> GhostFieldsIn(const std::map<std::string, Term>& ghosts) {
    std::map<std::string, Term> out;
    for (const auto& [key, value] : ghosts) {
      if (absl::StartsWith(key, "this.")) out.emplace(key.substr(5), value);
    }
    return out;
  }
  // A lowering at a point of the body, with the ghost locals bound.
  std::unique_ptr<Lowering> LoweringAt(const LoopSnapshots::Snapshot& snap, const z3::expr& where) {
    auto lowering = std::make_unique<Lowering>(machine_, mctx_, StatesAt(snap), where, deadline_);
    lowering->SetRepresents(&spec_.represents);
    lowering->SetModelMethods(&spec_.model_methods);
    for (const auto& [name, value] : snap.ghosts) lowering->BindName(name, value);
    return lowering;
  }

  // An assume statement at its arrival: the condition it adds.
  z3::expr LowerAssume(const BodyStatements::Arrival& at) {
    auto lowering = LoweringAt(at.state, at.state.guard);
    auto p = lowering->Predicate(*at.statement->expr, /*in_post=*/true);
    lowered_statements_.emplace(body_->arrivals.size() - 1,
                                Lowered{p.status(), lowering->TakeUndefined(),
                                        lowering->call_obligations()});
    return p.ok() ? *p : ops_.True();
  }

  // A ghost declaration or set at its arrival: the value it gives.
  std::optional<Term> LowerGhost(const BodyStatements::Arrival& at) {
    const jml::BodyAnnotation& a = *at.statement;
    auto lowering = LoweringAt(at.state, at.state.guard);
    absl::StatusOr<Term> value = absl::UnimplementedError("");
    if (a.kind == jml::BodyAnnotationKind::kSet &&
        (a.target == nullptr || (a.target->sym.kind != jml::SymbolKind::kGhostLocal &&
                                 !IsReceiverGhostField(*a.target)))) {
      value = jml::UnsupportedAt(a.span, "set of a ghost field of an object other than this "
                                          "(ghost locals and the receiver's ghost fields are "
                                          "executed)");
    } else if (a.kind == jml::BodyAnnotationKind::kSet) {
      value = lowering->ValueAs(*a.expr, /*in_post=*/true, a.target->type);
    } else if (a.expr) {
      value = lowering->ValueAs(*a.expr, /*in_post=*/true, a.ghost_type.resolved);
    } else {  // declared without a value: any value until set
      const jml::Type& t = a.ghost_type.resolved;
      std::string d = t.Descriptor().empty() ? "I" : t.Descriptor();
      value = lowering->FromValue(machine_.Fresh(d, a.ghost_name), t);
    }
    lowered_statements_.emplace(body_->arrivals.size() - 1,
                                Lowered{value.status(), lowering->TakeUndefined(),
                                        lowering->call_obligations()});
    if (!value.ok()) return std::nullopt;
    return *value;
  }

  // Whether `target` of a set statement is a ghost field of the receiver
  // with a value at entry.
  bool IsReceiverGhostField(const jml::Expr& target) const {
    if (target.sym.kind != jml::SymbolKind::kField || !target.sym.is_ghost ||
        target.sym.is_static || pre_states_.ghost_pre.count(target.name) == 0) {
      return false;
    }
    return target.kind == jml::ExprKind::kName ||
           (target.operands.size() == 1 && target.operands[0]->kind == jml::ExprKind::kThis);
  }

  // Each body statement at its place in the bytecode. Ghost variables are
  // executed only when every ghost statement has its place: one missed
  // update would make every later value wrong.
  absl::Status PlaceBodyStatements() {
    body_ = std::make_unique<BodyStatements>(
        method_, ops_, [this](const BodyStatements::Arrival& at) { return LowerAssume(at); },
        [this](const BodyStatements::Arrival& at) { return LowerGhost(at); });
    for (const auto& [name, value] : pre_states_.ghost_pre) {
      body_->Seed(absl::StrCat("this.", name), value);
    }
    std::map<const jml::BodyAnnotation*, uint32_t> places;
    for (const jml::BodyAnnotation* a : spec_.body_statements) {
      if (std::optional<uint32_t> pc = PointOf(method_, *a)) {
        places[a] = *pc;
      } else {
        unplaced_.push_back(a);
        ghosts_placed_ &= !IsGhostStatement(a);
      }
    }
    for (const jml::BodyAnnotation* a : spec_.body_statements) {
      auto place = places.find(a);
      if (place != places.end() && (ghosts_placed_ || !IsGhostStatement(a))) {
        body_->Add(place->second, a);
      }
    }
    return absl::OkStatus();
  }

  // The symbolic execution, watching the loop heads (when there are loop
  // invariants) and the body statements.
  absl::Status Execute() {
    loop_heads_.ghosts = &body_->ghosts();
    if (induction_ != nullptr) {
      loop_heads_.assume = [this](const LoopSnapshots::Snapshot& snap) {
        return AssumedInvariants(snap);
      };
    }
    auto run_or = machine_.Execute(*entry_, /*interceptor=*/nullptr,
                                   spec_.loop_invariants.empty() ? nullptr : &loop_heads_,
                                   body_->empty() ? nullptr : body_.get());
    if (!run_or.ok()) return Stage(run_or.status(), "during symbolic execution");
    run_.emplace(std::move(*run_or));
    return absl::OkStatus();
  }

  // ---- Per-case queries ----------------------------------------------------

  void CheckCase(const jml::FlatCase& c) {
    Lowering pre_lowering(machine_, mctx_, pre_states_, ops_.And(entry_->guard, implicit_),
                          deadline_);
    pre_lowering.SetRepresents(&spec_.represents);
    pre_lowering.SetModelMethods(&spec_.model_methods);
    std::optional<CasePre> pre = LowerCasePre(c, pre_lowering);
    if (!pre) return;
    any_pre_ = ops_.Or(any_pre_, pre->pre);
    for (const symex::Obligation& o : pre_lowering.call_obligations()) {
      q_->extra_obligations.push_back(o);
    }
    if (run_->normal) CheckNormalExit(c, *pre, *run_->normal);
    if (run_->exceptional) CheckExceptionalExit(c, *pre, *run_->exceptional);
  }

  // The case's variables, requires clauses (left to right: each may rely on
  // the ones before; their well-definedness checked on the executions they
  // lead to) and the receiver's invariants (not for constructors).
  // Nullopt when one of them could not be lowered (reported).
  std::optional<CasePre> LowerCasePre(const jml::FlatCase& c, Lowering& pre_lowering) {
    ConsistencyRun& q = *q_;
    CasePre out{ops_.And(entry_->guard, implicit_), {}, {}};
    for (const jml::SpecVarDecl* v : c.vars) {
      if (v->is_old && v->init) {
        auto t = pre_lowering.Value(*v->init, /*in_post=*/false);
        if (!t.ok()) {
          q.LoweringFailed(t.status(), nullptr);
          return std::nullopt;
        }
        out.vars.emplace_back(v->name, Term{v->type.resolved, t->e});
      } else {
        symex::Value fresh = machine_.Fresh(v->type.resolved.Descriptor().empty()
                                                ? "I" : v->type.resolved.Descriptor(),
                                            v->name);
        out.vars.emplace_back(v->name, pre_lowering.FromValue(fresh, v->type.resolved));
      }
    }
    for (auto& [name, t] : out.vars) pre_lowering.BindName(name, t);
    for (const jml::Clause* cl : c.clauses) {
      if (cl->kind != jml::ClauseKind::kRequires || !cl->pred) continue;
      if (cl->pred->kind == jml::ExprKind::kJmlKeyword) continue;
      auto p = pre_lowering.Predicate(*cl->pred, /*in_post=*/false);
      if (!p.ok()) {
        q.LoweringFailed(p.status(), cl);
        return std::nullopt;
      }
      std::vector<Undefined> undefined = pre_lowering.TakeUndefined();
      if (!undefined.empty()) {
        std::vector<ConsistencyRun::ExitRef> exits;
        if (run_->normal) exits.push_back({&*run_->normal, false});
        if (run_->exceptional) exits.push_back({&*run_->exceptional, true});
        q.CheckDefined(undefined, out.pre, cl, exits);
      }
      out.pre = ops_.And(out.pre, *p);
      pre_lowering.Strengthen(*p);
    }
    if (!IsConstructor() && entry_->receiver) {
      for (const jml::ClassClause* inv : spec_.invariants) {
        auto p = pre_lowering.Predicate(*inv->pred, false);
        if (!p.ok()) {
          q.LoweringFailed(p.status(), nullptr);
          return std::nullopt;
        }
        pre_lowering.TakeUndefined();
        out.pre = ops_.And(out.pre, *p);
      }
    }
    for (size_t i : InvariantArgs()) {
      for (const jml::ClassClause* inv : spec_.invariants) {
        auto p = ArgInvariant(*inv, i, &entry_->heap, out.pre);
        if (!p.ok()) {
          q.LoweringFailed(p.status(), nullptr);
          return std::nullopt;
        }
        out.pre = ops_.And(out.pre, *p);
      }
    }
    for (const jml::Clause* cl : c.clauses) {
      if (cl->kind == jml::ClauseKind::kAssignable) out.assignable.push_back(cl);
    }
    return out;
  }

  // The reference parameters whose declared type is the method's class: as
  // JML does, the invariants of parameter objects are assumed at entry and
  // checked at normal exits, like the receiver's.
  std::vector<size_t> InvariantArgs() const {
    std::vector<size_t> out;
    if (spec_.invariants.empty()) return out;
    std::string own = absl::StrCat("L", method_.owner->name, ";");
    for (size_t i = 0; i < entry_->args.size() && i < method_.signature.params.size(); ++i) {
      if (method_.signature.params[i] == own) out.push_back(i);
    }
    return out;
  }
  // `inv` read with `this` the object of parameter `arg` (when it is not
  // null), in `heap` (the entry heap, or an exit's).
  absl::StatusOr<z3::expr> ArgInvariant(const jml::ClassClause& inv, size_t arg,
                                        const symex::Heap* heap, const z3::expr& where) {
    LowerStates st = pre_states_;
    st.receiver = entry_->args[arg];
    st.ghost_pre.clear();  // the receiver's
    st.ghost_post.clear();
    bool in_post = heap != &entry_->heap;
    if (in_post) st.post = heap;
    Lowering lowering(machine_, mctx_, st, where, deadline_);
    lowering.SetRepresents(&spec_.represents);
    lowering.SetModelMethods(&spec_.model_methods);
    auto p = lowering.Predicate(*inv.pred, in_post);
    if (!p.ok()) return p.status();
    lowering.TakeUndefined();
    return ops_.Or(ops_.Eq(entry_->args[arg].e, ops_.Null()), *p);
  }

  // A lowering of the post-state at `exit` with the case's variables bound.
  std::unique_ptr<Lowering> LoweringAtExit(const CasePre& pre, const symex::ExitState& exit,
                                           bool exceptional, const z3::expr& where) {
    LowerStates st = pre_states_;
    st.post = &exit.heap;
    // The ghost fields as the body's set statements left them (no value
    // when a ghost statement has no place: none was executed).
    st.ghost_post = ghosts_placed_ ? GhostFieldsIn(body_->ghosts()) : std::map<std::string, Term>{};
    if (exceptional) {
      st.thrown = exit.value->e;
    } else if (exit.value) {
      st.result = exit.value;
    }
    auto post = std::make_unique<Lowering>(machine_, mctx_, st, where, deadline_);
    post->SetRepresents(&spec_.represents);
    post->SetModelMethods(&spec_.model_methods);
    for (auto& [name, t] : pre.vars) post->BindName(name, t);
    return post;
  }

  // Asks for a state where `p` (lowered from `cl`) is false though defined,
  // after checking its well-definedness; `where` is where it is evaluated.
  void CheckClauseHolds(Lowering& post, const jml::Clause* cl, const z3::expr& p,
                        const z3::expr& where, const symex::ExitState& exit, bool exceptional) {
    ConsistencyRun& q = *q_;
    std::vector<Undefined> undefined = post.TakeUndefined();
    z3::expr defined = ops_.True();
    for (const Undefined& u : undefined) defined = ops_.And(defined, ops_.Not(u.condition));
    size_t before = q.result.diagnostics.size();
    q.CheckDefined(undefined, where, cl, exit, exceptional);
    if (q.result.diagnostics.size() > before) return;
    q.Ask(ops_.And(ops_.And(where, defined), ops_.Not(p)), Diagnostic::Kind::kViolated, cl,
          "does not hold", exit, exceptional);
  }

  // The normal exit against the case: behavior kind, non_null result,
  // ensures, non_null fields, invariants, frame.
  void CheckNormalExit(const jml::FlatCase& c, const CasePre& pre, const symex::ExitState& exit) {
    ConsistencyRun& q = *q_;
    const symex::EntryState& entry = *entry_;
    z3::expr where = ops_.And(pre.pre, exit.guard);
    std::unique_ptr<Lowering> post_ptr = LoweringAtExit(pre, exit, /*exceptional=*/false, where);
    Lowering& post = *post_ptr;
    if (IsExceptionalBehavior(c.behavior)) {
      q.Ask(where, Diagnostic::Kind::kViolated, nullptr,
            absl::StrCat(c.label, ": the method returns normally"), exit, false);
    } else {
      if (mctx_.result_nullity == jml::Nullity::kNonNull && exit.value &&
          exit.value->kind == symex::Kind::kRef) {
        q.Ask(ops_.And(where, ops_.Eq(exit.value->e, ops_.Null())), Diagnostic::Kind::kViolated,
              nullptr, "implicit ensures \\result != null (non_null result) is violated", exit,
              false);
      }
      for (const jml::Clause* cl : c.clauses) {
        if (cl->kind != jml::ClauseKind::kEnsures || !cl->pred) continue;
        if (cl->pred->kind == jml::ExprKind::kJmlKeyword) continue;
        auto p = post.Predicate(*cl->pred, /*in_post=*/true);
        if (!p.ok()) {
          q.LoweringFailed(p.status(), cl);
          continue;
        }
        CheckClauseHolds(post, cl, *p, where, exit, /*exceptional=*/false);
      }
      for (const symex::FieldInfo* f : non_null_fields_) {
        z3::expr v = machine_.ReadField(exit.heap, entry.receiver->e, *f).e;
        q.Ask(ops_.And(where, ops_.Eq(v, ops_.Null())), Diagnostic::Kind::kViolated, nullptr,
              absl::StrCat("implicit invariant this.", f->name,
                           " != null (a non_null field by JML's default; declare it nullable "
                           "to allow null) does not hold at exit"),
              exit, false);
      }
      CheckInvariantsAtExit(post, where, exit, /*exceptional=*/false);
    }
    q.CheckFrame(pre.assignable, where, post, exit, false);
    for (const symex::Obligation& o : post.call_obligations()) q.extra_obligations.push_back(o);
  }

  // The exceptional exit against the case: behavior kind, signals_only (or
  // its default: the throws clause and RuntimeException), signals, frame.
  // "invariant P (line 7)"; an invariant given with the request (not in the
  // contract's text) is "class invariant P".
  static std::string InvariantName(const jml::ClassClause& inv) {
    if (inv.span.line == 0) return absl::StrCat("class invariant ", jml::PrintExpr(*inv.pred));
    return absl::StrCat("invariant ", jml::PrintExpr(*inv.pred), " (line ", inv.span.line, ")");
  }

  int GivenIndex(const jml::ClassClause& inv) const {
    const auto& given = spec_.given_invariants;
    auto it = std::find(given.begin(), given.end(), &inv);
    return it == given.end() ? -1 : static_cast<int>(it - given.begin());
  }

  // The invariants of the receiver and of the parameters of the method's
  // class hold at an exit: JML asks it of normal and exceptional exits
  // alike (an exception thrown half-way through an update must not leave a
  // broken object behind), except that a constructor that throws leaves no
  // object whose invariant could be assumed later.
  void CheckInvariantsAtExit(Lowering& post, const z3::expr& where, const symex::ExitState& exit,
                             bool exceptional) {
    ConsistencyRun& q = *q_;
    const symex::EntryState& entry = *entry_;
    const char* how = exceptional ? " at an exceptional exit" : " at exit";
    if (entry.receiver && !(exceptional && IsConstructor())) {
      for (const jml::ClassClause* inv : spec_.invariants) {
        auto p = post.Predicate(*inv->pred, true);
        if (!p.ok()) {
          q.LoweringFailed(p.status(), nullptr);
          continue;
        }
        post.TakeUndefined();
        if (q.Ask(ops_.And(where, ops_.Not(*p)), Diagnostic::Kind::kViolated, nullptr,
                  absl::StrCat(InvariantName(*inv), " does not hold", how), exit, exceptional)) {
          q.result.diagnostics.back().given_invariant = GivenIndex(*inv);
        }
      }
    }
    for (size_t i : InvariantArgs()) {
      for (const jml::ClassClause* inv : spec_.invariants) {
        auto p = ArgInvariant(*inv, i, &exit.heap, where);
        if (!p.ok()) {
          q.LoweringFailed(p.status(), nullptr);
          continue;
        }
        if (q.Ask(ops_.And(where, ops_.Not(*p)), Diagnostic::Kind::kViolated, nullptr,
                  absl::StrCat(InvariantName(*inv), " does not hold for parameter ",
                               entry.arg_names[i], how),
                  exit, exceptional)) {
          q.result.diagnostics.back().given_invariant = GivenIndex(*inv);
        }
      }
    }
  }

  void CheckExceptionalExit(const jml::FlatCase& c, const CasePre& pre,
                            const symex::ExitState& exit) {
    ConsistencyRun& q = *q_;
    z3::expr where = ops_.And(pre.pre, exit.guard);
    const z3::expr& thrown = exit.value->e;
    std::unique_ptr<Lowering> post_ptr = LoweringAtExit(pre, exit, /*exceptional=*/true, where);
    Lowering& post = *post_ptr;
    if (IsNormalBehavior(c.behavior)) {
      q.Ask(where, Diagnostic::Kind::kViolated, nullptr,
            absl::StrCat(c.label, ": the method throws an exception"), exit, true);
    } else {
      std::vector<std::string> allowed;
      const jml::Clause* only_clause = nullptr;
      for (const jml::Clause* cl : c.clauses) {
        if (cl->kind != jml::ClauseKind::kSignalsOnly) continue;
        only_clause = cl;
        for (const jml::TypeRef& t : cl->types) allowed.push_back(InternalTypeName(t.resolved));
      }
      if (only_clause == nullptr) {
        for (const std::string& ex : mctx_.method.exceptions) {
          allowed.push_back(classfile::BinaryToInternal(ex));
        }
        allowed.push_back("java/lang/RuntimeException");
      }
      z3::expr ok = ops_.False();
      for (const std::string& t : allowed) ok = ops_.Or(ok, machine_.InstanceOf(thrown, t));
      q.Ask(ops_.And(where, ops_.Not(ok)), Diagnostic::Kind::kViolated, only_clause,
            only_clause != nullptr ? "does not hold"
                                   : "the exception is not allowed by the default signals_only "
                                     "(the throws clause and RuntimeException)",
            exit, true);
      CheckImplicitExceptions(c, where, exit);
      for (const jml::Clause* cl : c.clauses) {
        if (cl->kind != jml::ClauseKind::kSignals || !cl->pred) continue;
        if (cl->pred->kind == jml::ExprKind::kJmlKeyword) continue;
        const jml::Type& et = cl->exception_type.resolved;
        if (!cl->exception_var.empty()) post.BindName(cl->exception_var, Term{et, thrown});
        auto p = post.Predicate(*cl->pred, /*in_post=*/true);
        if (!p.ok()) {
          q.LoweringFailed(p.status(), cl);
          continue;
        }
        z3::expr isa = machine_.InstanceOf(thrown, InternalTypeName(et));
        CheckClauseHolds(post, cl, *p, ops_.And(where, isa), exit, /*exceptional=*/true);
      }
      CheckInvariantsAtExit(post, where, exit, /*exceptional=*/true);
    }
    q.CheckFrame(pre.assignable, where, post, exit, true);
    for (const symex::Obligation& o : post.call_obligations()) q.extra_obligations.push_back(o);
  }

  // A lightweight case does not admit an implicit runtime exception that
  // none of its clauses (nor the throws clause) mentions; see clauses.h.
  void CheckImplicitExceptions(const jml::FlatCase& c, const z3::expr& where,
                               const symex::ExitState& exit) {
    if (!jml::RestrictsImplicitExceptions(c)) return;
    const z3::expr& thrown = exit.value->e;
    z3::expr implicit = ops_.False();
    for (const std::string& name : jml::ImplicitRuntimeExceptions()) {
      implicit = ops_.Or(implicit, machine_.InstanceOf(thrown, classfile::BinaryToInternal(name)));
    }
    z3::expr mentioned = ops_.False();
    for (const jml::Type& t : jml::MentionedExceptionTypes(c)) {
      mentioned = ops_.Or(mentioned, machine_.InstanceOf(thrown, InternalTypeName(t)));
    }
    for (const std::string& ex : mctx_.method.exceptions) {
      mentioned = ops_.Or(mentioned, machine_.InstanceOf(thrown, classfile::BinaryToInternal(ex)));
    }
    q_->Ask(ops_.And(where, ops_.And(implicit, ops_.Not(mentioned))), Diagnostic::Kind::kViolated,
            nullptr,
            absl::StrCat(c.label,
                         ": an implicit runtime exception escapes that no signals, signals_only "
                         "or throws clause names (a lightweight case does not allow them)"),
            exit, true);
  }

  // ---- Body annotations after the run --------------------------------------

  // The diagnostics added since `before` belong to the body annotation `a`.
  void Attribute(const jml::BodyAnnotation& a, size_t before) {
    for (size_t i = before; i < q_->result.diagnostics.size(); ++i) {
      q_->result.diagnostics[i].span = a.span;
      q_->result.diagnostics[i].clause = jml::PrintBodyAnnotation(a);
    }
  }

  // A body annotation at one arrival: its well-definedness and, unless it
  // was lowered during the run (an assume, `lowered_undefined`), its truth,
  // on the executions some case admits; the state shown is the state
  // there. Whether a diagnostic was added.
  bool CheckAt(const jml::BodyAnnotation& a, const LoopSnapshots::Snapshot& snap,
               const std::string& place, const std::vector<Undefined>* lowered_undefined) {
    ConsistencyRun& q = *q_;
    z3::expr where = ops_.And(any_pre_, snap.guard);
    symex::ExitState at{snap.guard, snap.heap, std::nullopt};
    q.loop_locals = LiveLocals(method_, snap.pc, snap.locals);
    q.point = place;
    size_t before = q.result.diagnostics.size();
    if (lowered_undefined != nullptr) {
      q.CheckDefined(*lowered_undefined, where, nullptr, at, false);
    } else {
      std::unique_ptr<Lowering> lowering_ptr = LoweringAt(snap, where);
      Lowering& lowering = *lowering_ptr;
      auto p = lowering.Predicate(*a.expr, /*in_post=*/true);
      if (!p.ok()) {
        q.LoweringFailed(p.status(), nullptr);
      } else {
        q.CheckDefined(lowering.TakeUndefined(), where, nullptr, at, false);
        if (q.result.diagnostics.size() == before) {
          q.Ask(ops_.And(where, ops_.Not(*p)), Diagnostic::Kind::kViolated, nullptr,
                absl::StrCat("does not hold ", place, " (the post-state shown is the state there)"),
                at, false);
        }
        for (const symex::Obligation& o : lowering.call_obligations()) {
          q.extra_obligations.push_back(o);
        }
      }
    }
    q.point.clear();
    Attribute(a, before);
    return q.result.diagnostics.size() > before;
  }

  void Note(const jml::BodyAnnotation& a, const std::string& message) {
    Diagnostic d;
    d.kind = Diagnostic::Kind::kNote;
    d.span = a.span;
    d.clause = jml::PrintBodyAnnotation(a);
    d.message = message;
    q_->result.diagnostics.push_back(std::move(d));
  }

  // Whether `snap` is at the head of the loop `inv` precedes: the head
  // found for it (SpecUnderCheck::loop_heads), else any loop head on the
  // line after it.
  bool IsHeadOf(const jml::BodyAnnotation& inv, const LoopSnapshots::Snapshot& snap) const {
    if (snap.method != &method_) return false;
    auto head = spec_.loop_heads.find(&inv);
    if (head != spec_.loop_heads.end()) return snap.pc == head->second;
    return static_cast<int>(method_.code().LineOf(snap.pc)) == inv.next_code_line;
  }

  // The induction step: the loop invariants of the loop at `snap` (and
  // that they are defined), assumed of the arbitrary state at its head.
  // Sound because every other arrival — the entry and each back edge — is
  // a snapshot CheckLoopInvariants checks; one that cannot be lowered is
  // not assumed.
  z3::expr AssumedInvariants(const LoopSnapshots::Snapshot& snap) {
    z3::expr assumed = ops_.True();
    if (snap.method != &method_) return assumed;
    for (const jml::BodyAnnotation* inv : spec_.loop_invariants) {
      if (!IsHeadOf(*inv, snap)) continue;
      std::unique_ptr<Lowering> lowering = LoweringAt(snap, snap.guard);
      auto p = lowering->Predicate(*inv->expr, /*in_post=*/true);
      if (!p.ok()) continue;
      z3::expr defined = ops_.True();
      for (const Undefined& u : lowering->TakeUndefined()) {
        defined = ops_.And(defined, ops_.Not(u.condition));
      }
      assumed = ops_.And(assumed, ops_.And(defined, *p));
    }
    return assumed;
  }

  // Loop invariants: at every arrival at their loop within the bounds (in
  // the induction step: at entry, at the head and at each back edge).
  void CheckLoopInvariants() {
    for (const jml::BodyAnnotation* inv : spec_.loop_invariants) {
      bool found = false;
      for (const LoopSnapshots::Snapshot& snap : loop_heads_.snapshots) {
        if (!IsHeadOf(*inv, snap)) continue;
        found = true;
        std::string place = absl::StrCat("at the head of the loop at line ", inv->next_code_line);
        if (CheckAt(*inv, snap, place, nullptr)) break;  // one counterexample per invariant
      }
      if (!found) {
        Note(*inv, absl::StrCat("no loop starts at line ", inv->next_code_line,
                                " in the executions within the bounds; not checked"));
      }
    }
  }

  // Statements of the body: asserts are checked at every arrival within
  // the bounds; assume, ghost declarations and set were lowered during the
  // run: their failures and well-definedness are reported here.
  void CheckBodyStatements() {
    ConsistencyRun& q = *q_;
    for (const jml::BodyAnnotation* a : spec_.body_statements) {
      bool is_assert = a->kind == jml::BodyAnnotationKind::kAssert;
      std::string place = absl::StrCat("at line ", a->next_code_line);
      bool reached = false;
      for (size_t i = 0; i < body_->arrivals.size(); ++i) {
        if (body_->arrivals[i].statement != a) continue;
        reached = true;
        const std::vector<Undefined>* lowered = nullptr;
        if (!is_assert) {
          auto l = lowered_statements_.find(i);
          if (l == lowered_statements_.end()) continue;
          for (const symex::Obligation& o : l->second.obligations) q.extra_obligations.push_back(o);
          if (!l->second.status.ok()) {
            size_t before = q.result.diagnostics.size();
            q.LoweringFailed(l->second.status, nullptr);
            Attribute(*a, before);
            break;  // reported once
          }
          lowered = &l->second.undefined;
        }
        if (CheckAt(*a, body_->arrivals[i].state, place, lowered)) break;  // one counterexample each
      }
      if (std::find(unplaced_.begin(), unplaced_.end(), a) != unplaced_.end()) {
        std::string why = absl::StrCat(
            "no place in the bytecode: line ", a->next_code_line,
            " has no code and the code before it ends at a jump or a join; put it before a "
            "statement");
        Note(*a, absl::StrCat(why, IsGhostStatement(a) ? "; ghost variables are not executed"
                                                       : "; not checked"));
        if (IsGhostStatement(a)) {
          q.NoteUnknown(
              absl::StrCat(jml::PrintBodyAnnotation(*a), " (line ", a->span.line, ") has ", why));
        }
      } else if (!ghosts_placed_ && IsGhostStatement(a)) {
        Note(*a, "not executed: another ghost statement has no place in the bytecode");
      } else if (!reached) {
        Note(*a, "not reached by the executions within the bounds; not checked");
      } else if (a->kind == jml::BodyAnnotationKind::kAssume) {
        Note(*a, "assumed: the executions where it is false are not checked");
      }
    }
  }

  const std::set<std::string>* induction_;  // the step's dropped candidates, or null
  symex::Program& program_;
  const symex::MethodInfo& method_;
  const SpecUnderCheck& spec_;
  const jml::MethodContext& mctx_;
  const ValidateRequest& request_;
  Clock::time_point start_;
  Clock::time_point deadline_;
  z3::context ctx_;
  Machine machine_;
  const symex::JavaOps& ops_;

  std::optional<symex::EntryState> entry_;
  LowerStates pre_states_;
  z3::expr any_pre_;   // some case admits the execution
  z3::expr implicit_;  // implicit preconditions
  std::vector<const symex::FieldInfo*> non_null_fields_;

  std::unique_ptr<BodyStatements> body_;
  std::set<std::string> held_invariants_, failed_invariants_;
  std::vector<std::string> input_cuts_;
  bool nothing_checked_ = false;
  std::map<size_t, Lowered> lowered_statements_;  // by arrival
  std::vector<const jml::BodyAnnotation*> unplaced_;
  bool ghosts_placed_ = true;
  LoopSnapshots loop_heads_;
  std::optional<symex::ExecutionResult> run_;

  std::optional<ConsistencyRun> q_;
};

}  // namespace

absl::StatusOr<CheckResult> CheckConsistency(symex::Program& program,
                                             const symex::MethodInfo& method,
                                             const SpecUnderCheck& spec,
                                             const ValidateRequest& request) {
  ConsistencyCheck check(program, method, spec, request);
  TS_ASSIGN_OR_RETURN(CheckResult r, check.Run());
  r.inputs_cut = !check.input_cuts().empty();
  // A PASS whose inputs were cut short: a bug that only longer inputs show
  // (a loop wrong from index 6 on) is looked for once more with inputs
  // kDeepenFactor times as long, within a bounded share of the time. So is
  // a precondition only longer inputs satisfy (nothing was checked): only a
  // FAIL there changes the verdict.
  // When that second look could not decide (it ran out of time, or there
  // was none left), the verdict says so ("; longer inputs not checked:
  // ..."): the bounded verdict stands, but the user learns the look for
  // longer-input bugs did not happen.
  std::string longer_inputs;
  if ((r.status == CheckStatus::kPass || check.nothing_checked()) && request.deepen &&
      !check.input_cuts().empty() && request.max_array > 0) {
    ValidateRequest deeper = request;
    deeper.max_array = std::min(4096, request.max_array * kDeepenFactor);
    deeper.unwind = std::max(request.unwind, deeper.max_array + 1);
    deeper.timeout_seconds = std::min(request.timeout_seconds - r.seconds,
                                      std::max(kDeepenSeconds, 2 * r.seconds));
    const std::string longer = absl::StrCat("longer inputs (up to ", deeper.max_array, ") not checked: ");
    if (deeper.timeout_seconds >= 0.5) {
      ConsistencyCheck deep(program, method, spec, deeper);
      absl::StatusOr<CheckResult> d = deep.Run();
      if (d.ok()) {
        r.seconds += d->seconds;
        if (d->status == CheckStatus::kFail) {
          d->seconds = r.seconds;
          return *std::move(d);
        }
        if (d->status == CheckStatus::kUnknown || d->status == CheckStatus::kError) {
          // A timeout's summary carries its seconds; the note does not, so
          // that equal outcomes read the same.
          longer_inputs = absl::StrCat(
              longer, d->summary.empty()                       ? "undecided"
                      : absl::StartsWith(d->summary, "timeout") ? "its time ran out"
                                                                : d->summary);
        }
      } else {
        longer_inputs = absl::StrCat(longer, d.status().message());
      }
    } else {
      longer_inputs = absl::StrCat(longer, "the time limit left too little time");
    }
  }
  auto noted = [&longer_inputs](CheckResult result) {
    if (!longer_inputs.empty() && result.status == CheckStatus::kPass) {
      absl::StrAppend(&result.summary, "; ", longer_inputs);
    }
    return result;
  };
  // A PASS within bounds: try to close the loops by induction (as `verify`
  // does, validator/README.md); the contract's loop invariants are assumed
  // at each havocked loop head and checked at its entry and back edges.
  // Executed body statements (ghost variables, assume) are not havocked by
  // the step, so a method with them stays bounded.
  // The cuts of input lengths stay: the step keeps the bound L (it havocs
  // loop state, not the inputs), so a proof holds for inputs within it.
  if (r.status != CheckStatus::kPass || r.cuts.size() == check.input_cuts().size() ||
      !spec.body_statements.empty()) {
    return noted(std::move(r));
  }
  std::set<std::string> dropped;
  for (int round = 0; round < 16; ++round) {
    ConsistencyCheck step(program, method, spec, request, &dropped);
    absl::StatusOr<CheckResult> s = step.Run();
    if (!s.ok()) return noted(std::move(r));  // the bounded verdict stands
    r.seconds += s->seconds;
    if (!step.failed_invariants().empty()) {
      dropped.insert(step.failed_invariants().begin(), step.failed_invariants().end());
      continue;
    }
    if (s->status == CheckStatus::kPass && s->cuts.size() == step.input_cuts().size()) {
      r.proved = true;
      // Every input-length cut of the bounded run and of the step, each once.
      std::vector<std::string> within = check.input_cuts();
      for (const std::string& c : step.input_cuts()) {
        if (std::find(within.begin(), within.end(), c) == within.end()) within.push_back(c);
      }
      r.summary = within.empty() ? "proved (every loop closed by induction"
                                 : absl::StrCat("proved for every number of loop iterations, ",
                                                "within bounds: ", absl::StrJoin(within, ", "),
                                                " (every loop closed by induction");
      if (!spec.loop_invariants.empty()) absl::StrAppend(&r.summary, " with the loop invariants given");
      if (!step.held_invariants().empty()) {
        absl::StrAppend(&r.summary, "; invariants: ",
                        absl::StrJoin(step.held_invariants(), ", "));
      }
      absl::StrAppend(&r.summary, ")");
    }
    break;
  }
  return noted(std::move(r));
}

}  // namespace tracespec::check
