// Exploring a class's abstract transition graph with the symbolic executor;
// see explore.h for what is explored and what the graph means.
#include "validator/protocol/explore.h"

#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/log.h"
#include "common/status.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/descriptors.h"
#include "validator/ctl/kripke_io.h"
#include "validator/protocol/fields.h"
#include "validator/symex/machine.h"
#include "validator/symex/solver.h"

namespace tracespec::protocol {

namespace {

using Clock = std::chrono::steady_clock;
// ACC_BRIDGE shares its bit with ACC_VOLATILE (JVM spec §4.6).
constexpr uint16_t kAccBridge = classfile::kAccVolatile;
using symex::ClassInfo;
using symex::FieldInfo;
using symex::MethodInfo;

// One abstract state: the value of each state field, as a number (booleans
// 0/1, enum constants by index with null after the constants, integral
// values as themselves).
using Values = std::vector<int64_t>;

// One way a call can end: the receiver's abstract state after it, and the
// exception class (binary name) for exceptional exits.
struct Outcome {
  Values post;
  std::string exception;
  bool operator<(const Outcome& o) const { return std::tie(post, exception) < std::tie(o.post, o.exception); }
};

class Explorer {
 public:
  Explorer(const ExploreOptions& options, symex::Program& program, const ClassInfo& cls,
           std::vector<StateField> fields, Clock::time_point deadline)
      : options_(options), program_(program), cls_(cls), fields_(std::move(fields)), deadline_(deadline) {}

  absl::StatusOr<ExploredProtocol> Run();

 private:
  // Every outcome of `method` from `pre` (nullopt for constructors).
  absl::StatusOr<std::vector<Outcome>> Outcomes(const MethodInfo& method, const std::optional<Values>& pre,
                                                const std::string& pre_name);
  // One execution at loop bound `unwind`; sets *deepen when a deeper loop
  // iteration (or recursion) is reachable and the bound may still grow.
  absl::StatusOr<std::vector<Outcome>> RunOnce(const MethodInfo& method, const std::optional<Values>& pre,
                                               const std::string& where, int unwind, bool* deepen);
  std::string ValueText(size_t field, int64_t v) const;
  std::vector<std::string> Texts(const Values& v) const;
  absl::Status CheckDeadline() const;

  const ExploreOptions& options_;
  symex::Program& program_;
  const ClassInfo& cls_;
  std::vector<StateField> fields_;
  Clock::time_point deadline_;
  ExploredProtocol result_;
};

std::string Explorer::ValueText(size_t field, int64_t v) const {
  const StateField& f = fields_[field];
  switch (f.kind) {
    case StateField::Kind::kBoolean: return v ? "true" : "false";
    case StateField::Kind::kEnum: return f.values[static_cast<size_t>(v)];
    case StateField::Kind::kIntegral: return absl::StrCat(v);
  }
  return "?";
}

std::vector<std::string> Explorer::Texts(const Values& v) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) out.push_back(ValueText(i, v[i]));
  return out;
}

absl::Status Explorer::CheckDeadline() const {
  if (Clock::now() < deadline_) return absl::OkStatus();
  return absl::DeadlineExceededError(absl::StrCat(
      "the exploration of ", cls_.binary_name(), " did not finish within ", options_.timeout_seconds, " s (",
      result_.graph.states.size(), " abstract states so far); raise --timeout"));
}

// The number a model gives a bit-vector term, sign-extended from its width
// when `is_signed`.
std::optional<int64_t> Evaluate(const z3::model& model, const z3::expr& e, bool is_signed) {
  z3::expr v = model.eval(e, /*model_completion=*/true);
  std::optional<uint64_t> bits = symex::JavaOps::BvValue(v);
  if (!bits) return std::nullopt;
  const unsigned width = e.get_sort().bv_size();
  if (!is_signed || width >= 64) return static_cast<int64_t>(*bits);
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((*bits ^ sign)) - static_cast<int64_t>(sign);
}

absl::StatusOr<std::vector<Outcome>> Explorer::RunOnce(const MethodInfo& method, const std::optional<Values>& pre,
                                                       const std::string& where, int unwind, bool* deepen) {
  *deepen = false;
  z3::context ctx;
  symex::ExecOptions eo;
  eo.unwind = unwind;
  eo.recursion = unwind;
  eo.max_array = options_.max_array;
  eo.deadline = deadline_;
  symex::Machine machine(ctx, program_, eo);
  const symex::JavaOps& ops = machine.ops();
  TS_ASSIGN_OR_RETURN(symex::EntryState entry, machine.CreateEntry(method));
  if (!entry.receiver) return absl::InternalError(absl::StrCat(method.DisplayName(), " has no receiver"));
  const z3::expr self = entry.receiver->e;

  // Enum classes: initialise them on the entry state and read their
  // constants (objects allocated by <clinit>, so concrete references).
  std::map<const ClassInfo*, std::vector<z3::expr>> constants;
  auto constants_of = [&](const ClassInfo* e) -> absl::StatusOr<const std::vector<z3::expr>*> {
    auto it = constants.find(e);
    if (it != constants.end()) return &it->second;
    TS_RETURN_IF_ERROR(machine.EnsureInitialized(entry, *e));
    std::vector<z3::expr> refs;
    for (const FieldInfo* c : EnumConstants(program_, *e)) {
      z3::expr ref = machine.ReadStatic(entry.heap, *c).e;
      if (!symex::JavaOps::BvValue(ref))
        return absl::UnimplementedError(absl::StrCat("the constants of enum ", e->binary_name(),
                                                     " are not fixed objects after its initialisation"));
      refs.push_back(ref);
    }
    return &constants.emplace(e, std::move(refs)).first->second;
  };
  // A free reference that is null or one of the enum's constants.
  auto some_constant = [&](const ClassInfo* e, const std::string& name) -> absl::StatusOr<z3::expr> {
    TS_ASSIGN_OR_RETURN(const std::vector<z3::expr>* refs, constants_of(e));
    z3::expr selector = machine.Fresh("I", name).e;
    z3::expr value = ops.Null();
    for (size_t i = 0; i < refs->size(); ++i)
      value = ops.Ite(ops.Eq(selector, ops.Int(static_cast<int32_t>(i + 1))), (*refs)[i], value);
    return value;
  };
  auto enum_of = [&](const std::string& descriptor) -> const ClassInfo* {
    if (descriptor.empty() || descriptor[0] != 'L') return nullptr;
    const ClassInfo* c = program_.FindClass(classfile::DescriptorToClassName(descriptor));
    return IsEnumClass(c) ? c : nullptr;
  };
  for (const StateField& f : fields_)
    if (f.kind == StateField::Kind::kEnum) TS_RETURN_IF_ERROR(constants_of(f.enum_class).status());

  // Arguments of enum types are constants or null.
  for (size_t i = 0; i < entry.args.size(); ++i) {
    if (const ClassInfo* e = enum_of(method.signature.params[i])) {
      TS_ASSIGN_OR_RETURN(entry.args[i].e, some_constant(e, absl::StrCat("enum_", entry.arg_names[i])));
    }
  }
  if (pre) {
    // The receiver's other enum fields are constants or null too; its state
    // fields hold the abstract state's values.
    std::set<int> state_ids;
    for (const StateField& f : fields_) state_ids.insert(f.field->id);
    for (const FieldInfo* f : program_.InstanceFields(&cls_)) {
      if (state_ids.count(f->id)) continue;
      if (const ClassInfo* e = enum_of(f->descriptor)) {
        TS_ASSIGN_OR_RETURN(z3::expr v, some_constant(e, absl::StrCat("enum_this.", f->name)));
        machine.WriteField(entry.heap, self, *f, symex::Value{symex::Kind::kRef, v});
      }
    }
    for (size_t i = 0; i < fields_.size(); ++i) {
      const StateField& f = fields_[i];
      const int64_t v = (*pre)[i];
      symex::Value value{symex::Kind::kInt, ops.Int(static_cast<int32_t>(v))};
      if (f.kind == StateField::Kind::kEnum) {
        const std::vector<z3::expr>& refs = constants.at(f.enum_class);
        value = symex::Value{symex::Kind::kRef, static_cast<size_t>(v) < refs.size() ? refs[v] : ops.Null()};
      } else if (f.field->descriptor == "J") {
        value = symex::Value{symex::Kind::kLong, ops.Long(v)};
      }
      machine.WriteField(entry.heap, self, *f.field, value);
    }
  }

  TS_ASSIGN_OR_RETURN(symex::ExecutionResult run, machine.Execute(entry));
  ++result_.executions;
  auto solve = [&](const z3::expr& query, bool want_model) {
    ++result_.solver_calls;
    return symex::Solve(ctx, machine.axioms(), ops.And(entry.guard, query), deadline_, want_model);
  };

  // Cuts: a reachable one means paths were not explored.
  z3::expr any_cut = ops.False();
  for (const symex::Obligation& o : run.obligations)
    if (o.kind != symex::ObligationKind::kException) any_cut = ops.Or(any_cut, o.condition);
  if (!symex::JavaOps::IsFalse(any_cut)) {
    symex::SolveResult cut = solve(any_cut, false);
    TS_RETURN_IF_ERROR(CheckDeadline());
    if (cut.result != z3::unsat) {
      std::vector<std::string> reasons;
      bool only_bounds = cut.result == z3::sat;
      for (const symex::Obligation& o : run.obligations) {
        if (o.kind == symex::ObligationKind::kException) continue;
        if (cut.result == z3::sat && solve(o.condition, false).result == z3::unsat) continue;
        const bool bound = o.kind == symex::ObligationKind::kUnwinding || o.kind == symex::ObligationKind::kRecursion;
        only_bounds = only_bounds && bound;
        reasons.push_back(absl::StrCat(symex::ObligationKindName(o.kind), " at ", machine.sites()[o.site].Describe(),
                                       o.detail.empty() ? "" : absl::StrCat(": ", o.detail)));
      }
      if (only_bounds && unwind * 2 <= options_.max_unwind) {
        *deepen = true;
        return std::vector<Outcome>();
      }
      if (cut.result != z3::sat) reasons.push_back("the solver could not decide whether a cut is reachable");
      result_.incomplete.push_back(absl::StrCat(where, " (loop bound ", unwind, "): ", absl::StrJoin(reasons, "; ")));
    }
  }

  // Exits: enumerate the receiver's post-states (and exception classes).
  std::vector<Outcome> outcomes;
  for (const bool exceptional : {false, true}) {
    const std::optional<symex::ExitState>& exit = exceptional ? run.exceptional : run.normal;
    if (!exit || symex::JavaOps::IsFalse(exit->guard)) continue;
    std::vector<z3::expr> post;
    for (const StateField& f : fields_) post.push_back(machine.ReadField(exit->heap, self, *f.field).e);
    std::optional<z3::expr> type;
    if (exceptional) type = machine.TypeOf(exit->value->e);
    z3::expr blocked = ops.True();
    for (int found = 0;; ++found) {
      symex::SolveResult r = solve(ops.And(exit->guard, blocked), true);
      TS_RETURN_IF_ERROR(CheckDeadline());
      if (r.result == z3::unsat) break;
      if (r.result != z3::sat) {
        result_.incomplete.push_back(absl::StrCat(where, ": the solver gave up enumerating the ",
                                                  exceptional ? "exceptional" : "normal", " exits"));
        break;
      }
      const z3::model& model = *r.model;
      Outcome outcome;
      z3::expr same = ops.True();
      for (size_t i = 0; i < fields_.size(); ++i) {
        const StateField& f = fields_[i];
        const char d = f.field->descriptor[0];
        std::optional<int64_t> v = Evaluate(model, post[i], /*is_signed=*/d != 'C' && d != 'Z' && d != 'L');
        if (!v) return absl::InternalError(absl::StrCat(where, ": no value for field ", f.name));
        same = ops.And(same, ops.Eq(post[i], model.eval(post[i], true)));
        if (f.kind == StateField::Kind::kBoolean) {
          *v = *v != 0;
        } else if (f.kind == StateField::Kind::kEnum) {
          const std::vector<z3::expr>& refs = constants.at(f.enum_class);
          int64_t index = -1;
          if (*v == 0) index = static_cast<int64_t>(refs.size());  // null
          for (size_t c = 0; c < refs.size(); ++c)
            if (symex::JavaOps::BvValue(refs[c]) == static_cast<uint64_t>(*v)) index = static_cast<int64_t>(c);
          if (index < 0)
            return absl::UnimplementedError(absl::StrCat(
                where, ": after the call, state field '", f.name, "' can hold an object of ",
                machine.TypeNameIn(model, post[i]), " that is not one of its enum constants: it comes from an input "
                "the explorer leaves free (only arguments and the receiver's own enum fields are limited to the "
                "constants)"));
          *v = index;
        }
        outcome.post.push_back(*v);
      }
      if (type) {
        std::optional<int64_t> id = Evaluate(model, *type, /*is_signed=*/false);
        if (!id || *id <= 0 || *id > program_.type_count())
          return absl::InternalError(absl::StrCat(where, ": exception of unknown type"));
        outcome.exception = program_.Type(static_cast<int>(*id)).DisplayName();
        same = ops.And(same, ops.Eq(*type, ops.TypeId(static_cast<int>(*id))));
      }
      if (found >= options_.max_values) {
        std::vector<std::string> examples;
        for (size_t k = 0; k < outcomes.size() && k < 5; ++k)
          examples.push_back(absl::StrJoin(Texts(outcomes[k].post), ","));
        return absl::InvalidArgumentError(absl::StrCat(
            where, " can leave the object in more than ", options_.max_values, " abstract states (",
            absl::StrJoin(examples, "; "), ", ...): the values of the state fields are not bounded here; "
            "choose fields with finitely many values or raise --max-values"));
      }
      outcomes.push_back(std::move(outcome));
      blocked = ops.And(blocked, ops.Not(same));
    }
  }
  return outcomes;
}

absl::StatusOr<std::vector<Outcome>> Explorer::Outcomes(const MethodInfo& method, const std::optional<Values>& pre,
                                                        const std::string& pre_name) {
  const std::string call = CallText(cls_.binary_name(), method.name, method.descriptor);
  const std::string where = pre ? absl::StrCat(call, " from ", pre_name) : call;
  for (int unwind = options_.unwind;; unwind *= 2) {
    TS_RETURN_IF_ERROR(CheckDeadline());
    Debug(absl::StrCat("protocol explore: ", where, " (loop bound ", unwind, ")"));
    bool deepen = false;
    TS_ASSIGN_OR_RETURN(std::vector<Outcome> outcomes, RunOnce(method, pre, where, unwind, &deepen));
    if (!deepen) return outcomes;
  }
}

absl::StatusOr<ExploredProtocol> Explorer::Run() {
  const auto start = Clock::now();
  ProtocolGraph& graph = result_.graph;
  for (const StateField& f : fields_) {
    graph.state_fields.push_back(f.name);
    graph.domains.push_back(f.values);
  }
  // Constructors and methods.
  std::vector<const MethodInfo*> constructors, methods;
  for (const auto& m : cls_.methods)
    if (m->name == "<init>" && m->method->is_public() && m->has_code()) constructors.push_back(m.get());
  if (constructors.empty())
    return absl::InvalidArgumentError(absl::StrCat(cls_.binary_name(),
                                                   " has no public constructor, so no object and no initial state"));
  std::set<std::string> seen, wanted(options_.methods.begin(), options_.methods.end()), found;
  for (const ClassInfo* c : program_.SuperChain(&cls_)) {
    if (c->origin != ClassInfo::Origin::kClassPath) continue;
    for (const auto& m : c->methods) {
      const classfile::Method& decl = *m->method;
      if (m->name == "<init>" || m->name == "<clinit>" || decl.is_static() || !decl.is_public() || !m->has_code() ||
          (decl.access & (classfile::kAccSynthetic | kAccBridge)) != 0)
        continue;
      if (!seen.insert(m->name + m->descriptor).second) continue;  // overridden
      if (!wanted.empty() && !wanted.count(m->name)) continue;
      found.insert(m->name);
      methods.push_back(m.get());
    }
  }
  for (const std::string& name : wanted)
    if (!found.count(name))
      return absl::NotFoundError(absl::StrCat(cls_.binary_name(), " has no public instance method '", name, "'"));
  for (const MethodInfo* m : constructors) result_.constructors.push_back(CallText(cls_.binary_name(), "<init>", m->descriptor));
  for (const MethodInfo* m : methods) {
    const std::string text = CallText(cls_.binary_name(), m->name, m->descriptor);
    result_.methods.push_back(text);
    auto [it, inserted] = graph.calls.emplace(m->name, text);
    if (!inserted && it->second != text) it->second = m->name + "(...)";  // overloads
  }

  // Initial states.
  std::map<Values, std::string> names;  // explored or queued states
  std::deque<Values> queue;
  auto add_state = [&](const Values& v) -> absl::StatusOr<std::string> {
    auto it = names.find(v);
    if (it != names.end()) return it->second;
    if (static_cast<int>(names.size()) >= options_.max_states)
      return absl::InvalidArgumentError(absl::StrCat(
          "more than ", options_.max_states, " abstract states are reachable (the last: ",
          graph.NameOf(Texts(v)), "): the values of the state fields are not bounded; choose fields with "
          "finitely many values or raise --max-states"));
    const std::string name = graph.AddState(Texts(v));
    names.emplace(v, name);
    queue.push_back(v);
    return name;
  };
  for (const MethodInfo* c : constructors) {
    const std::string call = CallText(cls_.binary_name(), "<init>", c->descriptor);
    TS_ASSIGN_OR_RETURN(std::vector<Outcome> outcomes, Outcomes(*c, std::nullopt, ""));
    std::set<std::string> thrown;
    for (const Outcome& o : outcomes) {
      if (!o.exception.empty()) {
        thrown.insert(o.exception);
        continue;
      }
      TS_ASSIGN_OR_RETURN(std::string name, add_state(o.post));
      graph.initial[name].insert(call);
    }
    if (!thrown.empty())
      result_.notes.push_back(absl::StrCat(call, " throws ", absl::StrJoin(thrown, ", "),
                                           " for some arguments (no object is created then)"));
  }
  if (graph.initial.empty())
    return absl::InvalidArgumentError(absl::StrCat("no public constructor of ", cls_.binary_name(),
                                                   " can return normally, so no object is ever created"));

  // Every reachable state, every method.
  while (!queue.empty()) {
    const Values pre = queue.front();
    queue.pop_front();
    const std::string from = names.at(pre);
    for (const MethodInfo* m : methods) {
      TS_ASSIGN_OR_RETURN(std::vector<Outcome> outcomes, Outcomes(*m, pre, from));
      for (const Outcome& o : outcomes) {
        TS_ASSIGN_OR_RETURN(std::string to, add_state(o.post));
        graph.transitions.insert(
            {from, to, o.exception.empty() ? m->name : ExceptionalAction(m->name, o.exception)});
      }
    }
  }

  TS_ASSIGN_OR_RETURN(result_.model, BuildModel(graph, cls_.binary_name()));
  std::vector<std::string> header = {
      absl::StrCat("Protocol of ", cls_.binary_name(), " explored by tracespec from its bytecode"),
      absl::StrCat("abstract state: (", absl::StrJoin(graph.state_fields, ", "), "); ", graph.states.size(),
                   " states reachable from ", constructors.size(), " constructor(s) by ", methods.size(),
                   " public method(s)"),
      "transitions: every call some object in the state can make, with its other fields, arguments and statics free",
      absl::StrCat("(an over-approximation); loops unwound up to ", options_.max_unwind, " iterations",
                   result_.incomplete.empty() ? "" : "; INCOMPLETE: some calls were cut, see the report"),
  };
  result_.text = ctl::WriteKripkeText(result_.model, header);
  result_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return std::move(result_);
}

}  // namespace

absl::StatusOr<ExploredProtocol> ExploreProtocol(const ExploreOptions& options) {
  if (options.unwind < 1 || options.max_unwind < options.unwind)
    return absl::InvalidArgumentError("--unwind must be at least 1 and at most --max-unwind");
  if (options.max_states < 1 || options.max_values < 1)
    return absl::InvalidArgumentError("--max-states and --max-values must be positive");
  if (!(options.timeout_seconds > 0))
    return absl::InvalidArgumentError("--timeout must be positive (seconds)");
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options.timeout_seconds));
  TS_ASSIGN_OR_RETURN(LoadedClass loaded, LoadClass(options.class_path, options.class_name));
  if (loaded.cls->is_interface || loaded.cls->is_abstract)
    return absl::InvalidArgumentError(absl::StrCat(options.class_name, " is ",
                                                   loaded.cls->is_interface ? "an interface" : "abstract",
                                                   ": explore a concrete class"));
  TS_ASSIGN_OR_RETURN(std::vector<StateField> fields,
                      ResolveStateFields(*loaded.program, *loaded.cls, options.state_fields));
  Explorer explorer(options, *loaded.program, *loaded.cls, std::move(fields), deadline);
  return explorer.Run();
}

absl::StatusOr<std::vector<std::vector<std::string>>> StateFieldDomains(const std::string& class_path,
                                                                        const std::string& class_name,
                                                                        const std::vector<std::string>& state_fields) {
  TS_ASSIGN_OR_RETURN(LoadedClass loaded, LoadClass(class_path, class_name));
  TS_ASSIGN_OR_RETURN(std::vector<StateField> fields,
                      ResolveStateFields(*loaded.program, *loaded.cls, state_fields));
  std::vector<std::vector<std::string>> domains;
  for (const StateField& f : fields) domains.push_back(f.values);
  return domains;
}

}  // namespace tracespec::protocol
