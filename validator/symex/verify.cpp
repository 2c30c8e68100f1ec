// The verify harness: iterative deepening of the loop bound, the three
// solver questions per round (is a violation reachable? an unsupported
// construct? a cut loop?), and the counterexample; see verify.h.
#include "validator/symex/verify.h"

#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/log.h"
#include "common/method_signature.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "validator/classfile/class_path.h"
#include "validator/symex/length_cuts.h"
#include "validator/symex/machine.h"
#include "validator/symex/replay.h"
#include "validator/symex/solver.h"

namespace tracespec::symex {

const char* PropertyName(Property property) {
  return property == Property::kAssert ? "assert" : "no-runtime-exception";
}

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSuccessful: return "SUCCESSFUL";
    case Verdict::kFailed: return "FAILED";
    case Verdict::kUnknown: return "UNKNOWN";
  }
  return "?";
}

const char* UnknownReasonName(UnknownReason reason) {
  switch (reason) {
    case UnknownReason::kNone: return "";
    case UnknownReason::kBound: return "bound reached";
    case UnknownReason::kUnsupported: return "unsupported";
    case UnknownReason::kTimeout: return "timeout";
    case UnknownReason::kSolver: return "solver gave up";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

SourceLocation LocationOf(const Site& site) {
  SourceLocation loc;
  if (site.method == nullptr) return loc;
  loc.class_name = site.method->owner->binary_name();
  std::string display = site.method->DisplayName();
  loc.method = display.substr(loc.class_name.size() + 1);
  loc.file = site.method->SourceFile();
  loc.line = site.line;
  loc.pc = site.pc;
  loc.instruction = site.instruction;
  return loc;
}

std::optional<uint64_t> Eval(const z3::model& model, const z3::expr& e) {
  return JavaOps::BvValue(model.eval(e, true));
}

uint64_t EvalValueBits(const z3::model& model, const Value& v) {
  z3::context& ctx = v.e.ctx();
  if (v.kind == Kind::kFloat || v.kind == Kind::kDouble) {
    bool is_float = v.kind == Kind::kFloat;
    z3::expr nan(ctx, Z3_mk_fpa_is_nan(ctx, v.e));
    if (model.eval(nan, true).is_true()) return is_float ? 0x7fc00000u : 0x7ff8000000000000ull;
    z3::expr bits(ctx, Z3_mk_fpa_to_ieee_bv(ctx, v.e));
    return Eval(model, bits).value_or(0);
  }
  uint64_t raw = Eval(model, v.e).value_or(0);
  if (v.kind == Kind::kInt) return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(raw)));
  return raw;
}

// Finds the method to verify.
absl::StatusOr<const MethodInfo*> FindTarget(const Program& program, const ClassInfo& cls,
                                             const std::string& spec) {
  if (spec.empty()) {
    const MethodInfo* main = program.FindDeclaredMethod(&cls, "main", "([Ljava/lang/String;)V");
    if (main == nullptr || !main->is_static()) {
      return absl::NotFoundError(absl::StrCat("class ", cls.binary_name(),
                                              " has no method public static void main(String[])"
                                              " (give --method to verify another method)"));
    }
    return main;
  }
  // The method as on every other subcommand, within --class: NAME,
  // NAME(JVM descriptor) or NAME(Java parameter types).
  absl::StatusOr<MethodSignature> signature =
      MethodSignature::Parse(absl::StrCat(cls.binary_name(), "#", spec));
  if (!signature.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--method '", spec, "': ", signature.status().message()));
  }
  const std::string& name = signature->method_name;
  std::vector<const MethodInfo*> matches;
  for (const MethodInfo* m : program.FindMethodsByName(&cls, name)) {
    if (signature->Matches(m->descriptor)) matches.push_back(m);
  }
  if (matches.empty()) {
    return absl::NotFoundError(absl::StrCat("class ", cls.binary_name(), " has no method ", spec));
  }
  if (matches.size() > 1) {
    std::vector<std::string> options;
    for (const MethodInfo* m : matches) options.push_back(absl::StrCat(m->name, m->descriptor));
    return absl::InvalidArgumentError(absl::StrCat(
        "method name ", name, " is overloaded in ", cls.binary_name(),
        "; choose one with --method: ", absl::StrJoin(options, ", ")));
  }
  if (!matches[0]->has_code()) {
    return absl::InvalidArgumentError(
        absl::StrCat(matches[0]->DisplayName(), " has no bytecode (abstract or native)"));
  }
  return matches[0];
}

// `why` collects the reasons of unknown answers.
z3::check_result Check(z3::context& ctx, Machine& machine, const z3::expr& query,
                       Clock::time_point deadline, std::optional<z3::model>* model,
                       std::string* why) {
  SolveResult r = Solve(ctx, machine.axioms(), query, deadline, model != nullptr);
  if (r.model && model != nullptr) *model = std::move(r.model);
  if (r.result == z3::unknown && why->empty()) *why = r.why_unknown;
  return r.result;
}

void FillCounterexample(Machine& machine, const z3::model& model, const EntryState& entry,
                        const ExitState& exit, bool harness, size_t first_trace,
                        VerifyResult* out) {
  out->exception_class = machine.TypeNameIn(model, exit.value->e);
  // Where the escaping exception was created.
  auto site = Eval(model, machine.OriginSite(exit.value->e));
  if (site && *site > 0 && *site < machine.sites().size()) {
    out->failure = LocationOf(machine.sites()[*site]);
  }
  for (const InputEvent& in : machine.inputs()) {
    if (!model.eval(in.guard, true).is_true()) continue;
    InputValue v;
    v.descriptor = in.descriptor;
    v.java_type = classfile::DescriptorToJava(in.descriptor);
    v.bits = EvalValueBits(model, in.value);
    v.text = machine.FormatValue(model, in.value, in.descriptor);
    v.where = LocationOf(machine.sites()[in.site]);
    if (in.source == InputEvent::Source::kNondet) {
      v.source = absl::StrCat("Verifier.", in.name, "()");
    } else {
      v.source = in.name;
      v.where.reset();
    }
    out->inputs.push_back(std::move(v));
  }
  for (size_t i = first_trace; i < machine.trace().size(); ++i) {
    const TraceEvent& t = machine.trace()[i];
    if (!model.eval(t.guard, true).is_true()) continue;
    SourceLocation loc = LocationOf(machine.sites()[t.site]);
    if (loc.line == 0) continue;
    if (!out->path.empty() && out->path.back().class_name == loc.class_name &&
        out->path.back().method == loc.method && out->path.back().line == loc.line) {
      continue;
    }
    out->path.push_back(std::move(loc));
  }
  if (harness) {
    std::vector<InputValue> nondet;
    for (const InputValue& v : out->inputs) {
      if (absl::StartsWith(v.source, "Verifier.")) nondet.push_back(v);
    }
    out->driver = HarnessDriver(nondet);
    out->driver_class = "Verifier";
    return;
  }
  // Static fields that got input values (and hold them on this path) are set
  // by the driver too; the objects they refer to join the pre-state.
  std::vector<const InputEvent*> statics;
  std::vector<std::pair<Value, std::string>> roots;
  for (const InputEvent& in : machine.inputs()) {
    if (in.source != InputEvent::Source::kStatic || in.field == nullptr) continue;
    if (!model.eval(in.guard, true).is_true()) continue;
    statics.push_back(&in);
    roots.emplace_back(in.value, in.descriptor);
  }
  std::vector<uint64_t> root_ids;
  auto observation =
      machine.BuildObservation(model, entry, exit, /*exceptional=*/true, roots, &root_ids);
  if (!observation.ok()) return;
  std::vector<StaticSetting> settings;
  for (size_t i = 0; i < statics.size(); ++i) {
    const FieldInfo& f = *statics[i]->field;
    settings.push_back(StaticSetting{classfile::InternalToBinary(f.owner), f.name, f.descriptor,
                                     EvalValueBits(model, statics[i]->value), root_ids[i]});
    if (classfile::IsReference(f.descriptor)) {
      for (InputValue& v : out->inputs) {
        if (v.source == f.DisplayName()) {
          v.text = root_ids[i] == 0 ? "null" : absl::StrCat("#", root_ids[i]);
        }
      }
    }
  }
  // Objects are named by their observation ids (#1, #2, ...).
  auto text = [&](const v1::Value& v, const std::string& fallback) {
    if (v.kind_case() == v1::Value::kRef) return absl::StrCat("#", v.ref());
    if (v.kind_case() == v1::Value::kNullValue) return std::string("null");
    return fallback;
  };
  std::vector<InputValue> described;
  if (entry.receiver) {
    described.push_back(InputValue{"this", entry.method->owner->binary_name(), "L",
                                   text(observation->receiver(), "?"), 0, std::nullopt});
  }
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const std::string& d = entry.method->signature.params[i];
    described.push_back(InputValue{entry.arg_names[i], classfile::DescriptorToJava(d), d,
                                   text(observation->args(static_cast<int>(i)),
                                        machine.FormatValue(model, entry.args[i], d)),
                                   EvalValueBits(model, entry.args[i]), std::nullopt});
  }
  described.insert(described.end(), out->inputs.begin(), out->inputs.end());
  out->inputs = std::move(described);
  out->driver_class = "TracespecReplay";
  out->driver = MethodDriver(*observation, settings, out->driver_class);
  out->observation = std::move(*observation);
}

struct InductionOutcome {
  bool proved = false;
  std::string why;                      // not proved: why the step failed
  std::vector<std::string> invariants;  // proved: the candidates that held
};

// The induction step (ExecOptions::induction): qualifying loops are entered
// in an arbitrary state constrained by candidate invariants; candidates
// that fail where a loop is entered or at a back edge are dropped and the
// step runs again (Houdini). It proves the property when, with the
// remaining candidates, no violation, cut or unsupported construct is
// reachable. Nothing it finds is a counterexample.
absl::StatusOr<InductionOutcome> InductionStep(const Program& program, const MethodInfo& method,
                                               bool harness, const char* target,
                                               const ExecOptions& base,
                                               Clock::time_point deadline) {
  InductionOutcome out;
  std::set<std::string> dropped;
  for (int round = 1;; ++round) {
    z3::context ctx;
    ExecOptions eo = base;
    eo.induction = true;
    eo.dropped_invariants = dropped;
    Machine machine(ctx, program, eo);
    auto entry = harness ? machine.CreateHarnessEntry(method) : machine.CreateEntry(method);
    absl::StatusOr<ExecutionResult> run =
        entry.ok() ? machine.Execute(*entry) : absl::StatusOr<ExecutionResult>(entry.status());
    if (!run.ok()) {
      if (run.status().code() == absl::StatusCode::kDeadlineExceeded) {
        out.why = "time limit reached in the induction step";
        return out;
      }
      return run.status();
    }
    const JavaOps& ops = machine.ops();
    // Candidates that may fail, grouped by their text.
    std::map<std::string, z3::expr> failing;
    for (const Obligation& o : run->obligations) {
      if (o.kind != ObligationKind::kInvariant) continue;
      auto it = failing.find(o.detail);
      if (it == failing.end()) failing.emplace(o.detail, o.condition);
      else it->second = ops.Or(it->second, o.condition);
    }
    size_t before = dropped.size();
    std::set<std::string> held;
    std::string unused;
    for (const auto& [text, condition] : failing) {
      if (Check(ctx, machine, condition, deadline, nullptr, &unused) == z3::unsat) {
        held.insert(text);
      } else {
        dropped.insert(text);
      }
    }
    Debug(absl::StrCat("verify: induction step round ", round, ": ", failing.size(),
                       " candidate invariants, ", dropped.size() - before, " dropped"));
    if (dropped.size() > before) continue;
    std::string why;
    z3::expr violation = ops.False();
    if (run->exceptional) {
      violation = ops.And(run->exceptional->guard,
                          machine.InstanceOf(run->exceptional->value->e, target));
    }
    z3::check_result r = Check(ctx, machine, violation, deadline, nullptr, &why);
    if (r != z3::unsat) {
      out.why = r == z3::sat ? "a violation is reachable from an arbitrary state at a loop head"
                             : absl::StrCat("the violation query was not decided: ", why);
      return out;
    }
    z3::expr rest = AnyObligation(ops, run->obligations,
                                  {ObligationKind::kUnwinding, ObligationKind::kRecursion,
                                   ObligationKind::kBound, ObligationKind::kUnsupported});
    std::optional<z3::model> model;
    r = Check(ctx, machine, rest, deadline, &model, &why);
    if (r == z3::sat) {
      const Obligation* o = WitnessObligation(*model, run->obligations,
                                              {ObligationKind::kUnwinding,
                                               ObligationKind::kRecursion, ObligationKind::kBound,
                                               ObligationKind::kUnsupported});
      out.why = absl::StrCat("not every loop qualifies", o == nullptr ? "" : ": ",
                             o == nullptr ? "" : o->detail);
      return out;
    }
    if (r == z3::unknown) {
      out.why = absl::StrCat("the bounds query was not decided: ", why);
      return out;
    }
    out.proved = true;
    out.invariants.assign(held.begin(), held.end());
    return out;
  }
}

}  // namespace

absl::StatusOr<VerifyResult> Verify(const VerifyOptions& options) {
  auto start = Clock::now();
  if (options.unwind < 1 || options.unwind > 1000000) {
    return absl::InvalidArgumentError(absl::StrCat("--unwind ", options.unwind,
                                                   " is outside 1..1000000"));
  }
  if (options.max_array < 0 || options.max_array > 4096) {
    return absl::InvalidArgumentError(absl::StrCat("--max-array ", options.max_array,
                                                   " is outside 0..4096"));
  }
  if (!(options.timeout_seconds > 0) || options.timeout_seconds > 7 * 24 * 3600) {
    return absl::InvalidArgumentError("--timeout must be positive (seconds, at most a week)");
  }
  if (options.max_unwind != 0 && options.max_unwind < options.unwind) {
    return absl::InvalidArgumentError("--max-unwind is smaller than --unwind");
  }
  auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(options.timeout_seconds));
  TS_ASSIGN_OR_RETURN(classfile::ClassPath class_path,
                      classfile::ClassPath::Create(options.class_path));
  TS_ASSIGN_OR_RETURN(std::unique_ptr<Program> program, Program::Load(std::move(class_path)));
  std::string internal = classfile::BinaryToInternal(options.class_name);
  TS_RETURN_IF_ERROR(program->NeededClass(internal));
  const ClassInfo* cls = program->FindClass(internal);
  if (cls == nullptr || cls->origin != ClassInfo::Origin::kClassPath) {
    return absl::NotFoundError(absl::StrCat("class ", options.class_name,
                                            " not found on the class path ", options.class_path));
  }
  TS_ASSIGN_OR_RETURN(const MethodInfo* method, FindTarget(*program, *cls, options.method));
  const bool harness = options.method.empty();

  VerifyResult result;
  result.property = options.property;
  result.class_name = cls->binary_name();
  result.method = method->DisplayName().substr(result.class_name.size() + 1);
  result.max_array = options.max_array;
  const char* target = options.property == Property::kAssert ? "java/lang/AssertionError"
                                                              : "java/lang/RuntimeException";
  int k = options.unwind;
  std::string unsupported_note;
  bool tried_induction = false;
  std::string induction_note;
  while (true) {
    ++result.rounds;
    result.unwind = k;
    z3::context ctx;
    ExecOptions eo;
    eo.unwind = k;
    eo.recursion = k;
    eo.max_array = options.max_array;
    eo.havoc_statics_after_init = !harness;
    eo.deadline = deadline;
    Machine machine(ctx, *program, eo);
    auto finish = [&](VerifyResult r) {
      r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      Debug(absl::StrCat("verify: verdict after ", r.seconds, " s"));
      return r;
    };
    auto entry = harness ? machine.CreateHarnessEntry(*method) : machine.CreateEntry(*method);
    // In method mode the class initialisation belongs to the entry state,
    // not to the path of the call.
    size_t first_trace = harness ? 0 : machine.trace().size();
    absl::StatusOr<ExecutionResult> run =
        entry.ok() ? machine.Execute(*entry) : absl::StatusOr<ExecutionResult>(entry.status());
    if (!run.ok()) {
      if (run.status().code() == absl::StatusCode::kDeadlineExceeded) {
        result.verdict = Verdict::kUnknown;
        result.unknown_reason = UnknownReason::kTimeout;
        result.reason = absl::StrCat("time limit of ", options.timeout_seconds,
                                     " s reached during symbolic execution with bound ", k);
        return finish(result);
      }
      return run.status();
    }
    Debug(absl::StrCat("verify: round ", result.rounds, " with k=", k, ": execution took ",
                       std::chrono::duration<double>(Clock::now() - start).count(), " s since start, ",
                       run->obligations.size(), " obligations, ", machine.trace().size(),
                       " blocks"));
    const JavaOps& ops = machine.ops();
    // 1. Is a violation reachable?
    z3::expr violation = ops.False();
    if (run->exceptional) {
      violation = ops.And(run->exceptional->guard,
                          machine.InstanceOf(run->exceptional->value->e, target));
    }
    std::optional<z3::model> model;
    std::string why_unknown;
    z3::check_result r = Check(ctx, machine, violation, deadline, &model, &why_unknown);
    if (r == z3::sat) {
      result.verdict = Verdict::kFailed;
      FillCounterexample(machine, *model, *entry, *run->exceptional, harness, first_trace,
                         &result);
      return finish(result);
    }
    if (r == z3::unknown) {
      result.verdict = Verdict::kUnknown;
      bool timed_out = Clock::now() >= deadline;
      result.unknown_reason = timed_out ? UnknownReason::kTimeout : UnknownReason::kSolver;
      result.reason = timed_out ? absl::StrCat("time limit of ", options.timeout_seconds,
                                               " s reached in the solver with bound ", k)
                                : absl::StrCat("the solver could not decide the violation query"
                                               " with bound ", k, ": ", why_unknown);
      return finish(result);
    }
    // 2. Does some path reach a construct without a model?
    z3::expr unsupported = AnyObligation(ops, run->obligations, {ObligationKind::kUnsupported});
    std::optional<z3::model> unsupported_model;
    z3::check_result ru = Check(ctx, machine, unsupported, deadline, &unsupported_model,
                                &why_unknown);
    if (ru == z3::sat) {
      const Obligation* o = WitnessObligation(*unsupported_model, run->obligations,
                                    {ObligationKind::kUnsupported});
      unsupported_note = o == nullptr ? "unsupported construct"
                                      : absl::StrCat(o->detail, " at ",
                                                     machine.sites()[o->site].Describe());
    }
    // 3. Was a loop, a recursion or another bound cut?
    z3::expr cut = AnyObligation(ops, run->obligations,
                       {ObligationKind::kUnwinding, ObligationKind::kRecursion,
                        ObligationKind::kBound});
    std::optional<z3::model> cut_model;
    z3::check_result rc = Check(ctx, machine, cut, deadline, &cut_model, &why_unknown);
    if (ru == z3::unknown || rc == z3::unknown) {
      result.verdict = Verdict::kUnknown;
      bool timed_out = Clock::now() >= deadline;
      result.unknown_reason = timed_out ? UnknownReason::kTimeout : UnknownReason::kSolver;
      result.reason = timed_out ? absl::StrCat("time limit reached while checking the bounds"
                                               " with bound ", k)
                                : absl::StrCat("the solver gave up while checking the bounds"
                                               " with bound ", k, ": ", why_unknown);
      return finish(result);
    }
    if (rc == z3::unsat) {
      if (ru == z3::sat) {
        result.verdict = Verdict::kUnknown;
        result.unknown_reason = UnknownReason::kUnsupported;
        result.reason = unsupported_note;
        return finish(result);
      }
      result.verdict = Verdict::kSuccessful;
      result.cuts = InputLengthCuts(machine, entry->guard, options.max_array, deadline);
      return finish(result);
    }
    // A bound was hit: try once to close the loops by induction.
    if (!tried_induction && ru == z3::unsat) {
      tried_induction = true;
      TS_ASSIGN_OR_RETURN(InductionOutcome step,
                          InductionStep(*program, *method, harness, target, eo, deadline));
      if (step.proved) {
        result.verdict = Verdict::kSuccessful;
        result.proved_by_induction = true;
        result.invariants = std::move(step.invariants);
        // The step havocs loop state, not the inputs: the bound on their
        // lengths stays, decided on this round's execution.
        result.cuts = InputLengthCuts(machine, entry->guard, options.max_array, deadline);
        return finish(result);
      }
      induction_note = absl::StrCat("induction step failed: ", step.why);
      Debug(absl::StrCat("verify: ", induction_note));
    }
    // Deepen while there is time (and no other bound is what stops us).
    const Obligation* o = WitnessObligation(*cut_model, run->obligations,
                                  {ObligationKind::kUnwinding, ObligationKind::kRecursion,
                                   ObligationKind::kBound});
    std::string why = o == nullptr ? "a bound was reached" : o->detail;
    bool only_array_bound = o != nullptr && o->kind == ObligationKind::kBound;
    double used = std::chrono::duration<double>(Clock::now() - start).count();
    double round = used / result.rounds;
    bool time_left = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(round)) < deadline;
    int next = k >= 1000000 / 2 ? 1000000 : k * 2;
    if (only_array_bound || !time_left || (options.max_unwind != 0 && k >= options.max_unwind) ||
        next == k) {
      result.verdict = Verdict::kUnknown;
      result.unknown_reason = UnknownReason::kBound;
      result.reason = why;
      if (!induction_note.empty()) absl::StrAppend(&result.reason, "; ", induction_note);
      if (!unsupported_note.empty()) absl::StrAppend(&result.reason, "; also reachable: ", unsupported_note);
      return finish(result);
    }
    k = options.max_unwind != 0 ? std::min(next, options.max_unwind) : next;
  }
}

// ---- reports ----

namespace {

std::string Where(const SourceLocation& loc) {
  std::string file = loc.line > 0 ? absl::StrCat(loc.file, ":", loc.line) : loc.file;
  return absl::StrCat(loc.class_name, ".", loc.method, " (", file, ", bytecode ", loc.pc, ": ",
                      loc.instruction, ")");
}

std::string PathText(const std::vector<SourceLocation>& path) {
  std::string out;
  std::string file;
  for (const SourceLocation& loc : path) {
    if (loc.file != file) {
      absl::StrAppend(&out, out.empty() ? "" : " ", loc.file, ":", loc.line);
      file = loc.file;
    } else {
      absl::StrAppend(&out, " ", loc.line);
    }
  }
  return out;
}

std::string PropertyText(Property p) {
  return p == Property::kAssert ? "assert (no AssertionError escapes)"
                                : "no-runtime-exception (no RuntimeException escapes)";
}

std::string JsonLocation(const SourceLocation& loc) {
  return absl::StrCat("{\"class\":", JsonQuote(loc.class_name), ",\"method\":", JsonQuote(loc.method),
                      ",\"file\":", JsonQuote(loc.file), ",\"line\":", loc.line, ",\"pc\":", loc.pc,
                      ",\"instruction\":", JsonQuote(loc.instruction), "}");
}

}  // namespace

std::string FormatVerifyText(const VerifyResult& r) {
  std::string out;
  if (r.verdict == Verdict::kUnknown) {
    absl::StrAppend(&out, "UNKNOWN (", UnknownReasonName(r.unknown_reason), ")\n");
  } else {
    absl::StrAppend(&out, "VERIFICATION ", VerdictName(r.verdict), "\n");
  }
  absl::StrAppend(&out, "target: ", r.class_name, ".", r.method, "\n");
  absl::StrAppend(&out, "property: ", PropertyText(r.property), "\n");
  if (r.verdict == Verdict::kUnknown) absl::StrAppend(&out, "reason: ", r.reason, "\n");
  if (r.verdict == Verdict::kFailed) {
    absl::StrAppend(&out, "violation: ", r.exception_class, " thrown at ",
                    r.failure ? Where(*r.failure) : "<unknown site>", "\n");
    absl::StrAppend(&out, "inputs:", r.inputs.empty() ? " none" : "", "\n");
    for (const InputValue& v : r.inputs) {
      absl::StrAppend(&out, "  ", v.source, " = ", v.text,
                      v.where ? absl::StrCat("  (", v.where->file, ":", v.where->line, ")") : "",
                      "\n");
    }
    if (r.observation) {
      for (const v1::ObjectState& obj : r.observation->pre()) {
        std::vector<std::string> parts;
        for (const v1::Field& f : obj.fields()) {
          std::string value;
          const v1::Value& v = f.value();
          switch (v.kind_case()) {
            case v1::Value::kBoolValue: value = v.bool_value() ? "true" : "false"; break;
            case v1::Value::kByteValue: value = absl::StrCat(v.byte_value()); break;
            case v1::Value::kShortValue: value = absl::StrCat(v.short_value()); break;
            case v1::Value::kCharValue: value = absl::StrCat("(char) ", v.char_value()); break;
            case v1::Value::kIntValue: value = absl::StrCat(v.int_value()); break;
            case v1::Value::kLongValue: value = absl::StrCat(v.long_value(), "L"); break;
            case v1::Value::kFloatValue: value = absl::StrCat(v.float_value(), "f"); break;
            case v1::Value::kDoubleValue: value = absl::StrCat(v.double_value()); break;
            case v1::Value::kRef: value = absl::StrCat("#", v.ref()); break;
            default: value = "null";
          }
          parts.push_back(absl::StrCat(f.name(), " = ", value));
        }
        if (obj.has_array()) {
          for (const v1::Value& v : obj.array().elements()) {
            switch (v.kind_case()) {
              case v1::Value::kRef: parts.push_back(absl::StrCat("#", v.ref())); break;
              case v1::Value::kNullValue: parts.push_back("null"); break;
              case v1::Value::kIntValue: parts.push_back(absl::StrCat(v.int_value())); break;
              case v1::Value::kLongValue: parts.push_back(absl::StrCat(v.long_value())); break;
              case v1::Value::kBoolValue: parts.push_back(v.bool_value() ? "true" : "false"); break;
              case v1::Value::kByteValue: parts.push_back(absl::StrCat(v.byte_value())); break;
              case v1::Value::kShortValue: parts.push_back(absl::StrCat(v.short_value())); break;
              case v1::Value::kCharValue: parts.push_back(absl::StrCat(v.char_value())); break;
              case v1::Value::kFloatValue: parts.push_back(absl::StrCat(v.float_value())); break;
              case v1::Value::kDoubleValue: parts.push_back(absl::StrCat(v.double_value())); break;
              default: parts.push_back("?");
            }
          }
          absl::StrAppend(&out, "  #", obj.id(), " = ", obj.class_name(), " length ",
                          obj.array().length(), " {", absl::StrJoin(parts, ", "), "}\n");
        } else {
          absl::StrAppend(&out, "  #", obj.id(), " = ", obj.class_name(), " {",
                          absl::StrJoin(parts, ", "), "}\n");
        }
      }
    }
    absl::StrAppend(&out, "path: ", PathText(r.path), "\n");
  }
  // A SUCCESSFUL verdict is complete only when no input length was cut;
  // otherwise it holds within the bounds named.
  std::string within =
      r.cuts.empty() ? "" : absl::StrCat("within bounds: ", absl::StrJoin(r.cuts, ", "));
  std::string bound =
      r.proved_by_induction
          ? absl::StrCat("proved by induction (unbounded; loops entered in any state",
                         r.invariants.empty() ? "" : " satisfying the invariants below",
                         ", other loops fit in k=", r.unwind, ")",
                         within.empty() ? "" : ", ", within)
      : r.verdict == Verdict::kSuccessful
          ? absl::StrCat(within.empty() ? "complete" : within,
                         " (every loop and recursion fits in k=", r.unwind, ")")
          : absl::StrCat("k=", r.unwind, " (within bounds)");
  absl::StrAppend(&out, "bounds: ", bound, ", max-array ", r.max_array, ", ", r.rounds,
                  r.rounds == 1 ? " round" : " rounds", "\n");
  for (const std::string& inv : r.invariants) absl::StrAppend(&out, "invariant: ", inv, "\n");
  absl::StrAppend(&out, "time: ", absl::StrFormat("%.3f", r.seconds), " s\n");
  return out;
}

std::string FormatVerifyJson(const VerifyResult& r) {
  std::string out = absl::StrCat(
      "{\"verdict\":", JsonQuote(VerdictName(r.verdict)),
      ",\"unknown_reason\":", JsonQuote(UnknownReasonName(r.unknown_reason)),
      ",\"reason\":", JsonQuote(r.reason), ",\"property\":", JsonQuote(PropertyName(r.property)),
      ",\"class\":", JsonQuote(r.class_name), ",\"method\":", JsonQuote(r.method),
      ",\"unwind\":", r.unwind, ",\"max_array\":", r.max_array,
      ",\"complete\":",
      r.verdict == Verdict::kSuccessful && !r.proved_by_induction && r.cuts.empty() ? "true"
                                                                                    : "false",
      ",\"proved\":", r.verdict == Verdict::kSuccessful ? "true" : "false",
      ",\"induction\":", r.proved_by_induction ? "true" : "false",
      ",\"rounds\":", r.rounds, ",\"seconds\":", absl::StrFormat("%.3f", r.seconds));
  std::vector<std::string> cuts;
  for (const std::string& c : r.cuts) cuts.push_back(JsonQuote(c));
  absl::StrAppend(&out, ",\"cuts\":[", absl::StrJoin(cuts, ","), "]");
  if (r.verdict == Verdict::kFailed) {
    absl::StrAppend(&out, ",\"violation\":{\"exception\":", JsonQuote(r.exception_class),
                    ",\"location\":", r.failure ? JsonLocation(*r.failure) : "null", "}");
    std::vector<std::string> inputs;
    for (const InputValue& v : r.inputs) {
      inputs.push_back(absl::StrCat("{\"source\":", JsonQuote(v.source), ",\"type\":", JsonQuote(v.java_type),
                                    ",\"value\":", JsonQuote(v.text),
                                    ",\"location\":", v.where ? JsonLocation(*v.where) : "null",
                                    "}"));
    }
    absl::StrAppend(&out, ",\"inputs\":[", absl::StrJoin(inputs, ","), "]");
    std::vector<std::string> path;
    for (const SourceLocation& loc : r.path) path.push_back(JsonLocation(loc));
    absl::StrAppend(&out, ",\"path\":[", absl::StrJoin(path, ","), "]");
    if (r.observation) {
      absl::StrAppend(&out, ",\"observation\":", ToJsonLine(*r.observation));
    }
  }
  return out + "}\n";
}

}  // namespace tracespec::symex
