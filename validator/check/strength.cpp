// Strength of a specification on the observations it admits: determinism
// (one Z3 query per observation over the lowered specification) and
// output-perturbation completeness (perturbed outcomes through the
// observation evaluator). See StrengthResult in validator.h.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "validator/check/checks.h"
#include "validator/check/lowering.h"
#include "validator/check/observation_pin.h"
#include "validator/classfile/descriptors.h"
#include "validator/jml/observation_eval.h"
#include "validator/symex/machine.h"
#include "validator/symex/solver.h"

namespace tracespec::check {
namespace {

using Clock = std::chrono::steady_clock;

bool IsRedacted(const v1::Value& v) { return v.kind_case() == v1::Value::kRedacted; }

// Why the recorded outcome cannot be compared with another (another could
// differ unnoticed in the part not recorded), or "": the result is
// redacted, or an array of the post-state is recorded in part. (A redacted
// field of the post-state is left out of the comparison, like its
// pre-state value.)
std::string IncompleteOutcome(const v1::Observation& o) {
  if (o.outcome().kind_case() == v1::Outcome::kReturned && IsRedacted(o.outcome().returned())) {
    return "the recorded result is redacted";
  }
  for (const v1::ObjectState& s : o.post()) {
    if (s.has_array() && s.array().elements_size() < s.array().length()) {
      return "an array of the post-state is recorded in part";
    }
  }
  return "";
}

bool Threw(const v1::Observation& o) { return o.outcome().kind_case() == v1::Outcome::kThrown; }

bool IsExceptionalBehavior(jml::Behavior b) {
  return b == jml::Behavior::kExceptional;
}

// ---- Determinism -----------------------------------------------------------

// Pins the symbolic entry (and a free post-state) to one observation and
// asks whether the specification admits another normal outcome (of an
// observation that threw: whether it applies and admits no normal one).
class DeterminismQuery {
 public:
  DeterminismQuery(symex::Machine& machine, const symex::MethodInfo& method,
                   const SpecUnderCheck& spec, const symex::EntryState& entry,
                   const symex::Heap& post, Clock::time_point deadline)
      : machine_(machine),
        ops_(machine.ops()),
        method_(method),
        spec_(spec),
        entry_(entry),
        post_(post),
        deadline_(deadline),
        pin_(machine) {}

  enum class Answer { kPinned, kOpen, kUndecided };

  // `why` receives the reason of an undecided answer.
  Answer Ask(const v1::Observation& o, std::string* why) {
    std::string incomplete = IncompleteOutcome(o);
    if (!incomplete.empty()) {
      *why = incomplete;
      return Answer::kUndecided;
    }
    pre_ids_.clear();
    z3::expr pin = pin_.Entry(entry_, method_, o, &pre_ids_);
    std::map<uint64_t, const v1::ObjectState*> post_objects;
    for (const v1::ObjectState& s : o.post()) post_objects[s.id()] = &s;
    // The recorded outcome: post-state of the objects that existed before
    // (every field and element, references and strings included), and the
    // result.
    PinnedIds post_ids = pre_ids_;
    z3::expr same = ops_.True();
    std::vector<std::pair<z3::expr, const symex::FieldInfo*>> locations;
    std::vector<PinnedElement> elements;
    for (const auto& [id, ref] : pre_ids_) {
      auto it = post_objects.find(id);
      if (it == post_objects.end()) continue;
      same = ops_.And(same,
                      pin_.Object(post_, ref, *it->second, &post_ids, &locations, &elements));
    }
    bool exceptional = Threw(o);
    std::optional<symex::Value> result;
    const std::string& ret = method_.signature.ret;
    if (ret != "V") {
      result = machine_.Fresh(ret, "strength!result");
      if (!exceptional && o.outcome().kind_case() == v1::Outcome::kReturned) {
        same = ops_.And(same,
                        pin_.Value(post_, result->e, o.outcome().returned(), ret, &post_ids));
      }
    }
    // A reference is pinned by its contents, not its identity alone: the
    // objects the post-state reaches that did not exist before (a returned
    // array, a new object stored into a field) are compared field by field
    // and element by element, breadth first.
    std::vector<uint64_t> queue;
    for (const auto& [id, ref] : post_ids) {
      if (pre_ids_.count(id) == 0) queue.push_back(id);
    }
    for (size_t q = 0; q < queue.size(); ++q) {
      auto it = post_objects.find(queue[q]);
      if (it == post_objects.end()) continue;
      same = ops_.And(same, pin_.Object(post_, post_ids.at(queue[q]), *it->second, &post_ids));
      for (const auto& [id, ref] : post_ids) {
        if (pre_ids_.count(id) == 0 && std::find(queue.begin(), queue.end(), id) == queue.end()) {
          queue.push_back(id);
        }
      }
    }
    // The specification admits a normal outcome (result, post_): some
    // case's requires holds, and every case whose requires holds allows a
    // normal exit with its ensures and frame.
    LowerStates pre_states;
    pre_states.pre = &entry_.heap;
    pre_states.receiver = entry_.receiver;
    pre_states.args = entry_.args;
    LowerStates post_states = pre_states;
    post_states.post = &post_;
    post_states.result = result;
    z3::expr any_pre = ops_.False();
    z3::expr all_post = ops_.True();
    for (const jml::FlatCase& c : spec_.cases) {
      Lowering pre_lowering(machine_, *spec_.context, pre_states, pin, deadline_);
      pre_lowering.SetRepresents(&spec_.represents);
      pre_lowering.SetModelMethods(&spec_.model_methods);
      Lowering post_lowering(machine_, *spec_.context, post_states, pin, deadline_);
      post_lowering.SetRepresents(&spec_.represents);
      post_lowering.SetModelMethods(&spec_.model_methods);
      for (const jml::SpecVarDecl* v : c.vars) {
        if (!v->is_old || !v->init) {
          *why = absl::StrCat(c.label, ": a spec-case variable without an initial value");
          return Answer::kUndecided;
        }
        auto t = pre_lowering.Value(*v->init, /*in_post=*/false);
        if (!t.ok()) return Failed(t.status(), why);
        pre_lowering.BindName(v->name, *t);
        post_lowering.BindName(v->name, *t);
      }
      z3::expr pre = ops_.True();
      z3::expr post = IsExceptionalBehavior(c.behavior) ? ops_.False() : ops_.True();
      std::vector<const jml::StoreRef*> frame;
      bool everything = true;
      for (const jml::Clause* cl : c.clauses) {
        if (cl->kind == jml::ClauseKind::kRequires && cl->pred &&
            cl->pred->kind != jml::ExprKind::kJmlKeyword) {
          auto p = pre_lowering.Predicate(*cl->pred, /*in_post=*/false);
          if (!p.ok()) return Failed(p.status(), why);
          pre = ops_.And(pre, *p);
        } else if (cl->kind == jml::ClauseKind::kEnsures && cl->pred &&
                   cl->pred->kind != jml::ExprKind::kJmlKeyword) {
          auto p = post_lowering.Predicate(*cl->pred, /*in_post=*/true);
          if (!p.ok()) return Failed(p.status(), why);
          post = ops_.And(post, *p);
        } else if (cl->kind == jml::ClauseKind::kAssignable) {
          everything = false;
          for (const jml::StoreRef& r : cl->store_refs) {
            if (r.kind == jml::StoreRef::Kind::kEverything ||
                r.kind == jml::StoreRef::Kind::kNotSpecified) {
              everything = true;
            }
            frame.push_back(&r);
          }
        }
      }
      // The frame, on the recorded locations: one outside it keeps its value.
      if (!everything) {
        for (const auto& [ref, field] : locations) {
          z3::expr in = ops_.False();
          for (const jml::StoreRef* r : frame) {
            auto c_in = pre_lowering.FieldInFrame(*r, ref, field->id);
            if (!c_in.ok()) return Failed(c_in.status(), why);
            in = ops_.Or(in, *c_in);
          }
          z3::expr kept = machine_.ReadField(post_, ref, *field).e ==
                          machine_.ReadField(entry_.heap, ref, *field).e;
          post = ops_.And(post, ops_.Or(in, kept));
        }
        // Array elements too: an unchanged array argument is not another
        // outcome under `assignable \nothing`.
        for (const PinnedElement& el : elements) {
          z3::expr in = ops_.False();
          for (const jml::StoreRef* r : frame) {
            auto c_in = pre_lowering.ElementInFrame(*r, el.array, ops_.Int(el.index));
            if (!c_in.ok()) return Failed(c_in.status(), why);
            in = ops_.Or(in, *c_in);
          }
          z3::expr kept =
              machine_.ReadElement(post_, el.array, ops_.Int(el.index), el.descriptor).e ==
              machine_.ReadElement(entry_.heap, el.array, ops_.Int(el.index), el.descriptor).e;
          post = ops_.And(post, ops_.Or(in, kept));
        }
      }
      pre_lowering.TakeUndefined();
      post_lowering.TakeUndefined();
      any_pre = ops_.Or(any_pre, pre);
      all_post = ops_.And(all_post, ops_.Implies(pre, post));
    }
    if (spec_.cases.empty()) any_pre = ops_.True();
    z3::expr admits = ops_.And(pin, ops_.And(any_pre, all_post));
    if (!exceptional) {
      // The recorded outcome itself must be admitted by this encoding;
      // otherwise an unsat answer below would say nothing.
      switch (Solve(ops_.And(admits, same), why)) {
        case z3::sat: break;
        case z3::unsat:
          *why = "the recorded outcome could not be represented (a value not pinned exactly)";
          return Answer::kUndecided;
        default: return Answer::kUndecided;
      }
      z3::check_result other = Solve(ops_.And(admits, ops_.Not(same)), why);
      if (other == z3::unknown) return Answer::kUndecided;
      return other == z3::unsat ? Answer::kPinned : Answer::kOpen;
    }
    // The contract determines that the call throws when some case applies
    // to the pre-state and no normal outcome is admitted; where no case
    // applies it says nothing.
    switch (Solve(ops_.And(pin, any_pre), why)) {
      case z3::sat: break;
      case z3::unsat: return Answer::kOpen;
      default: return Answer::kUndecided;
    }
    z3::check_result normal = Solve(admits, why);
    if (normal == z3::unknown) return Answer::kUndecided;
    return normal == z3::unsat ? Answer::kPinned : Answer::kOpen;
  }

 private:
  Answer Failed(const absl::Status& s, std::string* why) {
    *why = std::string(s.message());
    return Answer::kUndecided;
  }

  z3::check_result Solve(const z3::expr& query, std::string* why) {
    symex::SolveResult r =
        symex::Solve(machine_.ctx(), machine_.axioms(), query, deadline_, /*want_model=*/false);
    if (r.result == z3::unknown) {
      *why = r.why_unknown.empty() ? "the solver could not decide" : r.why_unknown;
    }
    return r.result;
  }

  symex::Machine& machine_;
  const symex::JavaOps& ops_;
  const symex::MethodInfo& method_;
  const SpecUnderCheck& spec_;
  const symex::EntryState& entry_;
  const symex::Heap& post_;
  Clock::time_point deadline_;
  ObservationPin pin_;
  PinnedIds pre_ids_;
};

// The post-state where nothing the method cannot assign has changed: only a
// constructor assigns a final instance field (its receiver's), so in any
// other method's post-state every final field keeps its entry value (a
// contract need not say that `items` still refers to the same array); and
// strings and boxes are immutable: their `value` and the characters of the
// strings that existed before the call are the entry's.
void KeepUnassignable(symex::Machine& machine, const symex::MethodInfo& method,
                      const symex::Heap& entry, symex::Heap* post) {
  static const std::set<std::string> kImmutable = {
      "java/lang/String",  "java/lang/Integer", "java/lang/Long",   "java/lang/Short",
      "java/lang/Byte",    "java/lang/Character", "java/lang/Float", "java/lang/Double",
      "java/lang/Boolean"};
  const symex::Program& program = machine.program();
  for (int id = 0; id < program.field_count(); ++id) {
    const symex::FieldInfo& f = program.Field(id);
    if (f.is_static) continue;
    bool immutable = f.name == "value" && kImmutable.count(f.owner) > 0;
    if (immutable || (f.is_final && method.name != "<init>")) {
      post->fields.insert_or_assign(id, machine.FieldStore(entry, id));
    }
  }
  z3::context& ctx = machine.ctx();
  z3::expr r = ctx.constant("strength!chars", machine.ops().Null().get_sort());
  z3::expr before = machine.ContentStore(entry, symex::ElemKind::kChar);
  z3::expr after = machine.ContentStore(*post, symex::ElemKind::kChar);
  post->contents.insert_or_assign(
      static_cast<int>(symex::ElemKind::kChar),
      z3::lambda(r, z3::ite(machine.IsPreexistingStringChars(r), z3::select(before, r),
                            z3::select(after, r))));
}

// The longest array or string (in UTF-16 units) the observations hold: the
// bound on input lengths must admit each of them, the result included.
int LongestArray(const std::vector<const v1::Observation*>& observations) {
  int longest = 0;
  auto value = [&](const v1::Value& v) {
    if (v.kind_case() == v1::Value::kStringValue) {
      longest = std::max(longest, static_cast<int>(Utf8ToUtf16(v.string_value()).size()));
    }
  };
  for (const v1::Observation* o : observations) {
    for (const v1::Value& a : o->args()) value(a);
    if (o->outcome().kind_case() == v1::Outcome::kReturned) value(o->outcome().returned());
    for (const auto* states : {&o->pre(), &o->post()}) {
      for (const v1::ObjectState& s : *states) {
        if (s.has_array()) longest = std::max(longest, s.array().length());
        for (const v1::Value& e : s.array().elements()) value(e);
        for (const v1::Field& f : s.fields()) value(f.value());
      }
    }
  }
  return longest;
}

// ---- Perturbed outcomes ----------------------------------------------------

// Perturbations of one primitive value: ±1 and ±k for integers, a flip for
// booleans, one ulp and far off for floating point; `all` false: only the
// first (±1 / flip / one ulp).
std::vector<v1::Value> Perturb(const v1::Value& v, bool all) {
  std::vector<v1::Value> out;
  auto add = [&](auto set) {
    v1::Value p;
    set(&p);
    out.push_back(p);
  };
  auto ints = [&](int64_t x, int64_t k, auto set) {
    for (int64_t d : {int64_t{1}, int64_t{-1}, k, -k}) {
      add([&](v1::Value* p) { set(p, x, d); });
      if (!all) break;
    }
  };
  switch (v.kind_case()) {
    case v1::Value::kBoolValue:
      add([&](v1::Value* p) { p->set_bool_value(!v.bool_value()); });
      break;
    case v1::Value::kByteValue:
      ints(v.byte_value(), 100, [](v1::Value* p, int64_t x, int64_t d) {
        p->set_byte_value(static_cast<int8_t>(static_cast<uint8_t>(x + d)));
      });
      break;
    case v1::Value::kShortValue:
      ints(v.short_value(), 1000, [](v1::Value* p, int64_t x, int64_t d) {
        p->set_short_value(static_cast<int16_t>(static_cast<uint16_t>(x + d)));
      });
      break;
    case v1::Value::kCharValue:
      ints(v.char_value(), 1000, [](v1::Value* p, int64_t x, int64_t d) {
        p->set_char_value(static_cast<uint16_t>(x + d));
      });
      break;
    case v1::Value::kIntValue:
      ints(v.int_value(), 1000, [](v1::Value* p, int64_t x, int64_t d) {
        p->set_int_value(static_cast<int32_t>(static_cast<uint32_t>(x + d)));
      });
      break;
    case v1::Value::kLongValue:
      ints(v.long_value(), 1000000, [](v1::Value* p, int64_t x, int64_t d) {
        p->set_long_value(static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(d)));
      });
      break;
    case v1::Value::kDoubleValue: {
      double x = v.double_value();
      double ulp = std::isnan(x) ? 0.0 : std::nextafter(x, std::numeric_limits<double>::infinity());
      if (std::isinf(x) && x > 0) ulp = std::numeric_limits<double>::max();
      add([&](v1::Value* p) { p->set_double_value(ulp); });
      if (all) {
        double far = std::isnan(x) || std::isinf(x) ? 1.0 : x + 1000.0 * std::max(1.0, std::fabs(x));
        add([&](v1::Value* p) { p->set_double_value(far); });
      }
      break;
    }
    case v1::Value::kFloatValue: {
      float x = v.float_value();
      float ulp = std::isnan(x) ? 0.0f : std::nextafter(x, std::numeric_limits<float>::infinity());
      if (std::isinf(x) && x > 0) ulp = std::numeric_limits<float>::max();
      add([&](v1::Value* p) { p->set_float_value(ulp); });
      if (all) {
        float far = std::isnan(x) || std::isinf(x) ? 1.0f : x + 1000.0f * std::max(1.0f, std::fabs(x));
        add([&](v1::Value* p) { p->set_float_value(far); });
      }
      break;
    }
    case v1::Value::kStringValue:
      add([&](v1::Value* p) { p->set_string_value(v.string_value() + "x"); });
      break;
    default: break;
  }
  return out;
}

bool SameValue(const v1::Value& a, const v1::Value& b) {
  return a.SerializeAsString() == b.SerializeAsString();
}

// The default value of a return type, as recorded.
v1::Value DefaultOf(const std::string& descriptor) {
  v1::Value v;
  switch (descriptor.empty() ? 'V' : descriptor[0]) {
    case 'Z': v.set_bool_value(false); break;
    case 'B': v.set_byte_value(0); break;
    case 'S': v.set_short_value(0); break;
    case 'C': v.set_char_value(0); break;
    case 'I': v.set_int_value(0); break;
    case 'J': v.set_long_value(0); break;
    case 'F': v.set_float_value(0); break;
    case 'D': v.set_double_value(0); break;
    default: v.mutable_null_value(); break;
  }
  return v;
}

v1::ObjectState* PostObject(v1::Observation* o, uint64_t id) {
  for (v1::ObjectState& s : *o->mutable_post()) {
    if (s.id() == id) return &s;
  }
  return nullptr;
}

struct PerturbedOutcome {
  v1::Observation observation;
  // A field the call did not change, changed: a frame alone rejects it.
  bool unchanged_field = false;
  // Only swapped between returning and throwing, no value changed.
  bool swap = false;
};

// The perturbed outcomes of one observation, in a fixed order.
std::vector<PerturbedOutcome> PerturbedOutcomes(const v1::Observation& o,
                                                const std::string& ret) {
  std::vector<PerturbedOutcome> out;
  if (Threw(o)) {
    v1::Observation p = o;
    if (ret == "V") {
      p.mutable_outcome()->mutable_returned_void();
    } else {
      *p.mutable_outcome()->mutable_returned() = DefaultOf(ret);
    }
    out.push_back({std::move(p), false, /*swap=*/true});
    return out;
  }
  // The result.
  if (o.outcome().kind_case() == v1::Outcome::kReturned) {
    const v1::Value& r = o.outcome().returned();
    for (const v1::Value& v : Perturb(r, /*all=*/true)) {
      v1::Observation p = o;
      *p.mutable_outcome()->mutable_returned() = v;
      out.push_back({std::move(p)});
    }
    if (r.kind_case() == v1::Value::kRef) {
      // One element of a returned array changed.
      v1::Observation p = o;
      v1::ObjectState* s = PostObject(&p, r.ref());
      if (s != nullptr && s->has_array() && s->array().elements_size() > 0) {
        std::vector<v1::Value> changed = Perturb(s->array().elements(0), /*all=*/false);
        if (!changed.empty()) {
          *s->mutable_array()->mutable_elements(0) = changed[0];
          out.push_back({std::move(p)});
        }
      }
    }
  }
  // The post-state: each field or element the call changed, and the
  // receiver's first two unchanged primitive fields.
  std::map<uint64_t, const v1::ObjectState*> pre;
  for (const v1::ObjectState& s : o.pre()) pre[s.id()] = &s;
  int unchanged = 0;
  for (int si = 0; si < o.post_size(); ++si) {
    const v1::ObjectState& after = o.post(si);
    auto before = pre.find(after.id());
    if (before == pre.end()) continue;
    bool receiver = o.receiver().kind_case() == v1::Value::kRef && o.receiver().ref() == after.id();
    if (after.has_array() && before->second->has_array()) {
      const v1::ArrayContents& a = after.array();
      const v1::ArrayContents& b = before->second->array();
      for (int i = 0; i < a.elements_size() && i < b.elements_size(); ++i) {
        if (SameValue(a.elements(i), b.elements(i))) continue;
        for (const v1::Value& v : Perturb(a.elements(i), /*all=*/false)) {
          v1::Observation p = o;
          *p.mutable_post(si)->mutable_array()->mutable_elements(i) = v;
          out.push_back({std::move(p)});
        }
        break;  // one element
      }
      continue;
    }
    for (int fi = 0; fi < after.fields_size(); ++fi) {
      const v1::Field& f = after.fields(fi);
      if (classfile::IsReference(f.jvm_type())) continue;
      const v1::Value* old = nullptr;
      for (const v1::Field& g : before->second->fields()) {
        if (g.name() == f.name() && g.declaring_class() == f.declaring_class()) old = &g.value();
      }
      if (old == nullptr) continue;
      bool changed = !SameValue(*old, f.value());
      if (!changed && !(receiver && unchanged < 2)) continue;
      std::vector<v1::Value> values = Perturb(f.value(), /*all=*/changed);
      if (values.empty()) continue;
      if (!changed) ++unchanged;
      for (const v1::Value& v : values) {
        v1::Observation p = o;
        *p.mutable_post(si)->mutable_fields(fi)->mutable_value() = v;
        out.push_back({std::move(p), /*unchanged_field=*/!changed});
      }
    }
  }
  // Swapped for an exception.
  v1::Observation p = o;
  v1::Thrown* t = p.mutable_outcome()->mutable_thrown();
  t->set_class_name("java.lang.RuntimeException");
  out.push_back({std::move(p), false, /*swap=*/true});
  return out;
}

}  // namespace

std::string StrengthResult::Summary() const {
  if (!measured) return note.empty() ? "strength not measured" : note;
  if (observations == 0) return "no admitted observation to measure strength on";
  std::string out;
  if (thrown == 0) {
    out = absl::StrCat("pins ", what, " on ", pinned, "/", observations, " observations");
  } else if (returned() == 0) {
    out = absl::StrCat("pins the exception on ", thrown_pinned, "/", thrown,
                       " observations (each threw)");
  } else {
    out = absl::StrCat("pins ", what, " on ", returned_pinned(), "/", returned(),
                       " observations that returned and the exception on ", thrown_pinned, "/",
                       thrown, " that threw");
  }
  if (undecided > 0) absl::StrAppend(&out, " (", undecided, " undecided)");
  absl::StrAppend(&out, ", rejects ", RejectedPercent(), "% of perturbed outcomes");
  // Calls that returned, none of whose values could be perturbed (an object
  // or enum result, no field recorded): the share counts swaps alone.
  if (returned() > 0 && perturbed_values == 0 && perturbed > 0) {
    absl::StrAppend(&out, " (only swapped between returning and throwing: no returned value "
                          "or field was perturbed)");
  }
  if (Vacuous()) {
    absl::StrAppend(&out, ", says nothing about the outcome");
  } else if (Weak()) {
    absl::StrAppend(&out, ", weak");
  }
  return out;
}

StrengthResult MeasureStrengthOf(symex::Program& program, const symex::MethodInfo& method,
                                 const SpecUnderCheck& spec,
                                 const std::vector<v1::Observation>& observations,
                                 const ValidateRequest& request) {
  auto start = Clock::now();
  StrengthResult r;
  r.measured = true;
  r.what = method.signature.ret == "V" ? "the post-state" : "\\result";
  // The observations the specification admits.
  std::vector<const v1::Observation*> admitted;
  for (const v1::Observation& o : observations) {
    if (o.excluded()) continue;
    jml::EvalOptions options;
    options.env = spec.env;
    jml::ObservationEvaluator evaluator(o, *spec.context, options);
    if (evaluator.EvaluateSpec(*spec.spec).admitted != jml::Truth::kFalse) admitted.push_back(&o);
  }
  r.observations = static_cast<int>(admitted.size());
  for (const v1::Observation* o : admitted) r.thrown += Threw(*o);
  // Completeness.
  for (const v1::Observation* o : admitted) {
    for (const PerturbedOutcome& p : PerturbedOutcomes(*o, method.signature.ret)) {
      jml::EvalOptions options;
      options.env = spec.env;
      jml::ObservationEvaluator evaluator(p.observation, *spec.context, options);
      jml::Truth t = evaluator.EvaluateSpec(*spec.spec).admitted;
      ++r.perturbed;
      if (!p.swap && !Threw(*o)) ++r.perturbed_values;
      if (t == jml::Truth::kFalse) ++r.rejected;
      if (t == jml::Truth::kFalse && p.unchanged_field) ++r.rejected_unchanged;
      if (t == jml::Truth::kUnknown) ++r.perturbed_undecided;
    }
  }
  // Determinism.
  if (!admitted.empty()) {
    z3::context ctx;
    symex::ExecOptions eo;
    eo.unwind = request.unwind;
    eo.max_array = std::max(request.max_array, LongestArray(admitted));
    Clock::time_point deadline =
        start + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double>(request.timeout_seconds));
    eo.deadline = deadline;
    symex::Machine machine(ctx, program, eo);
    absl::StatusOr<symex::EntryState> entry = machine.CreateEntry(method);
    if (!entry.ok()) {
      r.undecided = r.observations;
      r.note = absl::StrCat("determinism not measured: ", entry.status().message());
    } else {
      symex::Heap post = ObservationPin(machine).FreshHeap(entry->heap, "strength!post");
      KeepUnassignable(machine, method, entry->heap, &post);
      DeterminismQuery query(machine, method, spec, *entry, post, deadline);
      for (const v1::Observation* o : admitted) {
        std::string why;
        switch (query.Ask(*o, &why)) {
          case DeterminismQuery::Answer::kPinned:
            ++r.pinned;
            r.thrown_pinned += Threw(*o);
            break;
          case DeterminismQuery::Answer::kOpen: break;
          case DeterminismQuery::Answer::kUndecided:
            ++r.undecided;
            if (r.note.empty()) r.note = absl::StrCat("undecided: ", why);
            break;
        }
      }
    }
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

}  // namespace tracespec::check
