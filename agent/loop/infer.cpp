// `tracespec infer` as a library call; see infer.h.
#include "agent/loop/infer.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "agent/gateway/audit_key.h"
#include "agent/gateway/egress_policy.h"
#include "agent/gateway/gateway.h"
#include "agent/loop/feedback.h"
#include "agent/loop/method_inputs.h"
#include "agent/loop/refine.h"
#include "agent/loop/run_dir.h"
#include "agent/synth/builtin_client.h"
#include "common/files.h"
#include "common/hash.h"
#include "common/owned_paths.h"
#include "common/interrupt.h"
#include "validator/check/classfile_env.h"
#include "validator/classfile/class_path.h"
#include "validator/classfile/instructions.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "observer/policy.h"
#include "observer/target.h"
#include "common/glob.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::loop {
namespace {

// The redaction policy the observations were recorded under.
absl::StatusOr<v1::RedactionPolicy> RecordingPolicy(const InferOptions& options) {
  if (!options.redaction_policy.empty()) return observer::LoadPolicy(options.redaction_policy);
  std::string summary_path = options.observations + "/summary.json";
  if (IsDirectory(options.observations) && FileExists(summary_path)) {
    v1::ObserveSummary summary;
    TS_ASSIGN_OR_RETURN(std::string text, ReadFile(summary_path));
    google::protobuf::util::JsonParseOptions parse;
    // Only the policy matters here; this also reads summaries of other
    // versions (unknown fields and enum values are skipped).
    parse.ignore_unknown_fields = true;
    auto parsed = google::protobuf::util::JsonStringToMessage(text, &summary, parse);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(summary_path, ": not an observe summary: ", parsed.message().ToString()));
    }
    if (!summary.policy().empty() && summary.policy() != "built-in default") {
      if (!FileExists(summary.policy())) {
        return absl::NotFoundError(absl::StrCat(
            summary_path, " names the redaction policy ", summary.policy(),
            ", which is missing: give it with --redaction-policy"));
      }
      return observer::LoadPolicy(summary.policy());
    }
  }
  return observer::DefaultPolicy();
}

// The names anonymisation hides, which the gate then blocks (whole
// identifiers, ignoring case). Identifiers of the tests that differ from a
// hidden name only in case (a test's field `account` of class `Account`)
// would be blocked without being renamed: they are renamed too.
absl::StatusOr<std::vector<std::string>> HiddenNames(prompt::PromptInputs* inputs,
                                                     const prompt::PromptOptions& options) {
  TS_ASSIGN_OR_RETURN(prompt::PromptBuilder first, prompt::PromptBuilder::Create(*inputs, options));
  std::vector<std::string> hidden = first.anonymizer()->OriginalNames();
  std::set<std::string> exact(hidden.begin(), hidden.end());
  std::set<std::string> folded;
  for (const std::string& name : hidden) folded.insert(absl::AsciiStrToLower(name));
  std::set<std::string> variants;
  for (const prompt::TestSource& test : inputs->tests) {
    const std::string& text = test.text;
    for (size_t i = 0; i < text.size();) {
      if (!absl::ascii_isalpha(text[i]) && text[i] != '_') {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < text.size() && (absl::ascii_isalnum(text[j]) || text[j] == '_')) ++j;
      std::string word = text.substr(i, j - i);
      if (exact.count(word) == 0 && folded.count(absl::AsciiStrToLower(word)) > 0) {
        variants.insert(word);
      }
      i = j;
    }
  }
  if (variants.empty()) return hidden;
  for (const std::string& v : variants) inputs->extra_names.fields.push_back(v);
  TS_ASSIGN_OR_RETURN(prompt::PromptBuilder second, prompt::PromptBuilder::Create(*inputs, options));
  return second.anonymizer()->OriginalNames();
}

// Simple names of the classes a prompt names anyway: the target, its
// package's other classes the tests are in, the test classes.
std::vector<std::string> SentClassNames(const prompt::PromptInputs& inputs) {
  std::set<std::string> names;
  auto add = [&names](absl::string_view binary_name) {
    size_t hash = binary_name.find('#');
    if (hash != absl::string_view::npos) binary_name = binary_name.substr(0, hash);
    size_t dot = binary_name.find_last_of("./");
    for (absl::string_view part : absl::StrSplit(binary_name.substr(dot + 1), '$')) {
      if (!part.empty()) names.emplace(part);
    }
  };
  add(inputs.signature.class_name);
  for (const prompt::TestSource& test : inputs.tests) add(test.id);
  for (const v1::Observation& o : inputs.observations) add(o.test_id());
  return {names.begin(), names.end()};
}

// The string constants the compiled tests whose sources go into `inputs`'
// prompt load (ldc): for a test method, those of its own code and of the
// lambdas javac compiled out of it (lambda$name$N), which includes every
// constant variable it uses (javac inlines them); for a whole test class,
// those of every method of it and of the classes compiled from its file
// ("Top$..."). A class not on the class path contributes nothing.
std::vector<gateway::TestClassConstants> CompiledTestConstants(
    const prompt::PromptInputs& inputs, classfile::ClassPath* test_path,
    const std::vector<std::string>& all_classes) {
  std::map<std::string, std::set<std::string>> by_class;  // binary name -> strings
  auto scan = [&](const std::string& internal, const std::string& method,
                  std::set<std::string>* out) {
    absl::StatusOr<const classfile::ClassFile*> cls = test_path->Load(internal);
    if (!cls.ok()) return;
    for (const classfile::Method& m : (*cls)->methods) {
      bool wanted = method.empty() || m.name == method ||
                    absl::StartsWith(m.name, absl::StrCat("lambda$", method, "$"));
      if (!wanted || !m.code) continue;
      for (const classfile::Instruction& in : m.code->instructions) {
        if ((in.opcode == classfile::kLdc || in.opcode == classfile::kLdcW) &&
            (*cls)->pool.tag(static_cast<size_t>(in.operand)) == classfile::CpTag::kString) {
          out->insert((*cls)->pool.StringValue(static_cast<size_t>(in.operand)));
        }
      }
    }
  };
  for (const prompt::TestSource& test : inputs.tests) {
    if (test.text.empty()) continue;
    size_t hash = test.id.find('#');
    std::string binary = test.id.substr(0, hash);
    std::set<std::string>& strings = by_class[binary];
    std::string internal = absl::StrReplaceAll(binary, {{".", "/"}});
    if (hash != std::string::npos) {
      scan(internal, test.id.substr(hash + 1), &strings);
      continue;
    }
    for (const std::string& name : all_classes) {
      if (name == internal || absl::StartsWith(name, internal + "$")) scan(name, "", &strings);
    }
  }
  std::vector<gateway::TestClassConstants> out;
  for (auto& [binary, strings] : by_class) {
    if (strings.empty()) continue;
    out.push_back({binary, std::vector<std::string>(strings.begin(), strings.end())});
  }
  return out;
}

}  // namespace

std::vector<std::string> LocalEgressFlags(const InferOptions& options) {
  std::vector<std::string> local;
  if (!options.llm_url.empty()) local.push_back("--llm");
  if (!options.egress_policy.empty()) local.push_back("--egress-policy");
  if (!options.audit_log.empty()) local.push_back("--audit-log");
  if (!options.audit_key.empty()) local.push_back("--audit-key");
  if (options.dry_run) local.push_back("--dry-run");
  return local;
}

namespace {

// The methods `selectors` name, in their order: a pattern ("vault.Vault#*",
// "pkg.*#get*": observe's syntax and matching, observer::ParseTarget and
// PatternSelects) stands for every observed method it selects, sorted by
// key; any other selector stays as given. A method named twice is kept once.
absl::StatusOr<std::vector<std::string>> ExpandMethodPatterns(
    const std::vector<std::string>& selectors, const std::vector<v1::Observation>& observations,
    const std::string& observations_path) {
  std::vector<std::string> methods;
  std::set<std::string> seen;
  for (const std::string& selector : selectors) {
    if (!IsGlobPattern(selector)) {
      if (seen.insert(selector).second) methods.push_back(selector);
      continue;
    }
    TS_ASSIGN_OR_RETURN(v1::ProbeTarget pattern, observer::ParseTarget(selector));
    std::set<std::string> matched;
    for (const v1::Observation& o : observations) {
      if (observer::PatternSelects(pattern, o.method().class_name(), o.method().name())) {
        matched.insert(absl::StrCat(o.method().class_name(), "#", o.method().name(),
                                    o.method().jvm_descriptor()));
      }
    }
    if (matched.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--method '", selector, "': the pattern matches no observed method in ",
          observations_path, " (a pattern selects methods by class and name among those "
          "observed; constructors are named, not matched)"));
    }
    for (const std::string& m : matched) {
      if (seen.insert(m).second) methods.push_back(m);
    }
  }
  return methods;
}

absl::Status CheckOptions(const InferOptions& options) {
  if (options.methods.empty()) return absl::InvalidArgumentError("infer: no --method given");
  if (options.refine.rounds < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("infer: --rounds must be at least 1, not ", options.refine.rounds));
  }
  if (!options.gateway.empty()) {
    // The gateway holds the endpoint, the gate, the log and its key.
    if (std::vector<std::string> local = LocalEgressFlags(options); !local.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "infer: --gateway excludes ", absl::StrJoin(local, ", "),
          ": the gateway's own endpoint, egress policy, audit log, key and dry run apply"));
    }
    if (!options.make_gateway_client) {
      return absl::InvalidArgumentError("infer: --gateway without a way to connect to it");
    }
  } else if (options.llm_url.empty()) {
    if (options.dry_run) {
      return absl::InvalidArgumentError(
          "infer: --dry-run needs --llm (the built-in synthesizer sends nothing)");
    }
  } else if (options.egress_policy.empty()) {
    return absl::InvalidArgumentError(
        "infer: --llm needs --egress-policy FILE (e.g. policies/egress.textproto): nothing "
        "is sent without one");
  } else {
    // Whoever can rewrite the run directory must not hold the key that
    // signs its audit log.
    std::string key = options.audit_key.empty() ? gateway::DefaultAuditKeyPath()
                                                : options.audit_key;
    std::error_code ec;
    std::filesystem::path out = std::filesystem::weakly_canonical(options.out_dir, ec);
    std::filesystem::path key_path = std::filesystem::weakly_canonical(key, ec);
    bool inside = std::mismatch(out.begin(), out.end(), key_path.begin(), key_path.end())
                      .first == out.end();
    if (!key.empty() && !out.empty() && inside) {
      return absl::InvalidArgumentError(absl::StrCat(
          "infer: the audit key ", key, " lies inside the run directory ", options.out_dir,
          ": keep it elsewhere (--audit-key FILE, TRACESPEC_AUDIT_KEY), or the log's "
          "signatures prove nothing"));
    }
  }
  return absl::OkStatus();
}

// What identifies a method across runs: as resolved, else as given.
const std::string& MethodKey(const v1::InferResult& r) {
  return r.resolved().empty() ? r.method() : r.resolved();
}

// `run`'s results over those an earlier run left in OUT/summary.json: a
// method of this run replaces its earlier result (matched as resolved or as
// given), the others are kept; sorted by method. The error is this run's.
absl::StatusOr<v1::InferSummary> MergedSummary(const std::string& out_dir,
                                               const v1::InferSummary& run) {
  v1::InferSummary merged = run;
  std::string path = out_dir + "/summary.json";
  if (FileExists(path)) {
    v1::InferSummary earlier;
    absl::Status read = ReadJsonFile(path, &earlier);
    if (!read.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, " is not the summary of an earlier infer run (", read.message(),
                       "): move it away or choose another --out"));
    }
    std::set<std::string> replaced;
    for (const v1::InferResult& r : run.results()) {
      replaced.insert(r.method());
      replaced.insert(MethodKey(r));
    }
    for (const v1::InferResult& r : earlier.results()) {
      if (replaced.count(r.method()) == 0 && replaced.count(MethodKey(r)) == 0) {
        *merged.add_results() = r;
      }
    }
  }
  std::stable_sort(merged.mutable_results()->begin(), merged.mutable_results()->end(),
                   [](const v1::InferResult& a, const v1::InferResult& b) {
                     return MethodKey(a) < MethodKey(b);
                   });
  return merged;
}

// Writes OUT/summary.json and summary.txt over every method OUT holds (see
// MergedSummary); *text is this run's part, for the console.
absl::Status WriteSummary(const InferOptions& options, const v1::InferSummary& summary,
                          std::string* text) {
  *text = FormatSummaryText(summary, options.out_dir);
  if (!options.write_summary) return absl::OkStatus();
  TS_ASSIGN_OR_RETURN(v1::InferSummary merged, MergedSummary(options.out_dir, summary));
  TS_RETURN_IF_ERROR(WriteJsonFile(options.out_dir + "/summary.json", merged));
  return WriteFileAtomic(options.out_dir + "/summary.txt",
                         FormatSummaryText(merged, options.out_dir));
}

// Records a problem that stopped the whole run, when OUT can be written
// (and is the user's own).
absl::Status Fail(const InferOptions& options, absl::Status status) {
  if (PrepareOutputDir(options.out_dir).ok()) {
    v1::InferSummary summary;
    summary.set_format_version(v1::FORMAT_VERSION_1);
    summary.set_error(std::string(status.message()));
    std::string text;
    WriteSummary(options, summary, &text).IgnoreError();
  }
  return status;
}

}  // namespace

v1::Strength StrengthProto(const check::StrengthResult& strength) {
  v1::Strength out;
  out.set_measured(strength.measured);
  out.set_observations(strength.observations);
  out.set_pinned(strength.pinned);
  out.set_undecided(strength.undecided);
  out.set_thrown(strength.thrown);
  out.set_thrown_pinned(strength.thrown_pinned);
  out.set_perturbed(strength.perturbed);
  out.set_rejected(strength.rejected);
  out.set_weak(strength.Weak());
  out.set_vacuous(strength.Vacuous());
  out.set_summary(strength.Summary());
  out.set_note(strength.note);
  return out;
}

std::string WithStrength(std::string line, const v1::Strength& strength) {
  if (!strength.summary().empty()) absl::StrAppend(&line, " — ", strength.summary());
  return line;
}

std::string FormatSummaryText(const v1::InferSummary& summary, const std::string& out_dir) {
  std::string out;
  if (!summary.error().empty()) absl::StrAppend(&out, "error: ", summary.error(), "\n");
  for (const v1::InferResult& r : summary.results()) {
    std::string last = r.history().empty() ? "" : r.history().substr(r.history().rfind(',') + 1);
    absl::StrAppend(&out, r.method(), ": ", InferStatusName(r.status()));
    if (ShowsLastBits(r.status()) && !last.empty()) absl::StrAppend(&out, " ", last);
    absl::StrAppend(&out, RoundsNote(r.history(), r.status(), r.consistency_verdict()));
    absl::StrAppend(&out, WithStrength("", r.strength()), "\n");
    if (!r.strength().note().empty()) absl::StrAppend(&out, "  strength: ", r.strength().note(), "\n");
    if (!r.reason().empty()) absl::StrAppend(&out, "  ", r.reason(), "\n");
    if (r.withheld_verdicts() > 0) {
      absl::StrAppend(&out, "  ", r.withheld_verdicts(),
                      " coverage verdict(s) not fed back: they depend on withheld data\n");
    }
    if (r.withheld_values() > 0) {
      absl::StrAppend(&out, "  ", r.withheld_values(),
                      " counterexample value(s) not fed back: they change when the denied "
                      "constants are substituted\n");
    }
    if (!r.contract_file().empty()) {
      absl::StrAppend(&out, "  contract: ", out_dir, "/", r.contract_file(), "\n");
    }
    // Refuted clauses are never silently gone.
    for (const std::string& note : r.weakened()) absl::StrAppend(&out, "  ", note, "\n");
    for (const std::string& note : r.dropped()) absl::StrAppend(&out, "  ", note, "\n");
  }
  return out;
}

namespace {

// What a strength measure depends on (InferResult.strength_key): the
// measure's version, the contract as validated, the observations and the
// bounds.
std::string StrengthKey(const check::ValidateRequest& request) {
  std::string data = absl::StrCat(check::kStrengthMeasureVersion, "\n", request.contract, "\n",
                                  request.unwind, " ", request.max_array, " ",
                                  request.timeout_seconds, "\n");
  for (const std::string& inv : request.class_invariants) absl::StrAppend(&data, "invariant ", inv, "\n");
  for (const v1::Observation& o : request.observations) {
    std::string bytes = o.SerializeAsString();
    absl::StrAppend(&data, bytes.size(), ":", bytes);
  }
  return Sha256Hex(data);
}

}  // namespace

absl::StatusOr<std::unique_ptr<InferWorld>> InferWorld::Open(
    const InferOptions& options, std::optional<std::vector<v1::Observation>> observations) {
  auto world = std::make_unique<InferWorld>();
  TS_ASSIGN_OR_RETURN(world->class_path, classfile::ClassPath::Create(options.classpath));
  if (!options.llm_url.empty() || !options.gateway.empty()) {
    if (!options.test_classpath.empty()) {
      TS_ASSIGN_OR_RETURN(world->own_test_path, classfile::ClassPath::Create(options.test_classpath));
    }
    world->test_classes = world->test_path()->ListClasses();
  }
  if (observations.has_value()) {
    world->observations = *std::move(observations);
  } else {
    TS_ASSIGN_OR_RETURN(world->observations, ReadObservations(options.observations));
  }
  return world;
}

absl::StatusOr<InferRun> RunInfer(const InferOptions& options) {
  TS_RETURN_IF_ERROR(CheckOptions(options));
  // Bad input is found before anything is written: the class path opens,
  // the observations read, and every method resolves in the class files and
  // has observations.
  std::unique_ptr<InferWorld> own_world;
  InferWorld* world = options.world;
  if (world == nullptr) {
    TS_ASSIGN_OR_RETURN(own_world, InferWorld::Open(options));
    world = own_world.get();
  }
  classfile::ClassPath* class_path = &world->class_path;
  classfile::ClassPath* test_path = world->test_path();
  const std::vector<std::string>& test_classes = world->test_classes;
  const std::vector<v1::Observation>* observations = &world->observations;
  const bool remote = !options.llm_url.empty() || !options.gateway.empty();
  TS_ASSIGN_OR_RETURN(const std::vector<std::string> methods,
                      ExpandMethodPatterns(options.methods, *observations, options.observations));
  std::vector<MethodInputs> all_inputs;
  for (const std::string& selector : methods) {
    absl::StatusOr<MethodInputs> inputs =
        LoadMethodInputs(selector, *class_path, *observations, options.observations,
                         options.tests_src);
    if (!inputs.ok()) {
      return absl::Status(inputs.status().code(),
                          absl::StrCat(selector, ": ", inputs.status().message()));
    }
    all_inputs.push_back(*std::move(inputs));
  }
  // A broken egress policy or key file, an unreachable validator or an
  // unreadable recording policy stops the run before anything is written or
  // sent: an earlier run's results in --out stay as they were.
  if (!options.llm_url.empty()) {
    TS_RETURN_IF_ERROR(gateway::LoadEgressPolicy(options.egress_policy).status());
    TS_RETURN_IF_ERROR(gateway::AuditSigner::LoadOrCreate(options.audit_key.empty()
                                                              ? gateway::DefaultAuditKeyPath()
                                                              : options.audit_key)
                           .status());
  }
  std::unique_ptr<check::Validator> own_validator;
  check::Validator* validator = options.validator;
  if (validator == nullptr) {
    TS_ASSIGN_OR_RETURN(own_validator,
                        check::MakeValidator(options.make_validator, options.classpath));
    validator = own_validator.get();
  }
  check::ClassFileTypeEnvironment class_env(class_path);
  v1::RedactionPolicy redaction;
  if (remote) {
    TS_ASSIGN_OR_RETURN(redaction, RecordingPolicy(options));
  }
  // Prompts, answers and observations stay the owner's (see owned_paths.h).
  TS_RETURN_IF_ERROR(PrepareOutputDir(options.out_dir));

  InferRun run;
  run.summary.set_format_version(v1::FORMAT_VERSION_1);
  const std::function<void(absl::string_view)>& progress = options.refine.progress;
  for (size_t index = 0; index < methods.size(); ++index) {
    const std::string& selector = methods[index];
    if (StopSignal() != 0) {
      return absl::CancelledError(absl::StrCat(StopReason(), " after ", run.summary.results_size(),
                                               " of ", methods.size(),
                                               " methods; their results are kept in ",
                                               options.out_dir, ", and a re-run continues"));
    }
    std::string method_dir = options.out_dir + "/" + MethodDirName(selector);
    MethodInputs* inputs = &all_inputs[index];
    // An earlier run's result of this method (its journal), read before the
    // loop replaces it: its strength is kept when measured on the same.
    v1::InferResult earlier;
    if (!ReadJsonFile(method_dir + "/result.json", &earlier).ok()) earlier.Clear();
    for (const std::string& test : inputs->tests_without_source) {
      if (progress) {
        progress(absl::StrCat(selector, ": no source of test ", test, " under ",
                              options.tests_src));
      }
    }
    if (progress && inputs->literals_masked > 0) {
      progress(absl::StrCat(selector, ": ", inputs->literals_masked,
                            inputs->literals_masked == 1 ? " literal" : " literals",
                            " of the tests' sources masked as ", kDeniedLiteral,
                            ": the probe read that value from a denied location"));
    }
    for (const std::string& test : inputs->tests_source_withheld) {
      if (progress) {
        progress(absl::StrCat(selector, ": the source of test ", test,
                              " is left out: it writes a denied value so that it cannot be "
                              "masked (escapes, another radix)"));
      }
    }

    RefineOptions refine = options.refine;
    // Anonymisation is for what leaves the process (set below).
    refine.prompt.anonymize = false;

    check::ValidateRequest base;
    base.method = inputs->resolved;
    base.unwind = refine.unwind;
    base.max_array = refine.max_array;
    base.timeout_seconds = refine.validation_timeout_seconds;
    base.class_invariants = refine.class_invariants;
    ValidatorOracle oracle(validator, base);
    std::unique_ptr<gateway::LlmClient> client;
    if (!remote) {
      // In process, nothing leaves: no anonymisation (the synthesizer
      // answers with the real names), the validator as Houdini's oracle.
      client = std::make_unique<synth::BuiltinSynthesizer>(synth::SynthesisOptions{}, &oracle,
                                                           &class_env);
    } else {
      refine.prompt.anonymize = options.anonymize;
      refine.prompt.string_disclosure = redaction.string_disclosure();
      const std::string class_name = inputs->resolved.substr(0, inputs->resolved.find('#'));
      refine.withheld_constants = DeniedConstants(class_path, class_name, redaction);
      // Constants javac folded from the denied ones (PIN + 1), when the
      // implementation sources are at hand.
      if (!refine.withheld_constants.empty() && !options.implementation_sources.empty()) {
        absl::StatusOr<std::vector<v1::Value>> derived =
            DerivedConstants(class_path, options.classpath, class_name, redaction,
                             options.implementation_sources);
        if (derived.ok()) {
          refine.withheld_constants.insert(refine.withheld_constants.end(), derived->begin(),
                                           derived->end());
        } else if (progress) {
          progress(absl::StrCat(selector, ": constants derived from denied ones are not masked in "
                                          "the feedback: ",
                                derived.status().message()));
        }
      }
      gateway::GatewayConfig config;
      config.endpoint.base_url = options.llm_url;
      config.endpoint.model = options.refine.model;
      config.endpoint.api_key_env = options.api_key_env;
      config.endpoint.total_timeout = absl::Seconds(options.llm_timeout_seconds);
      config.retry.max_attempts = options.llm_attempts;
      config.egress_policy_path = options.egress_policy;
      config.audit_log_path =
          options.audit_log.empty() ? options.out_dir + "/audit.jsonl" : options.audit_log;
      config.audit_key_path = options.audit_key;
      if (options.dry_run) config.dry_run_dir = method_dir + "/dry-run";
      config.redaction_policy = redaction;
      config.observations = inputs->prompt.observations;
      config.implementation_sources = options.implementation_sources;
      if (options.anonymize) {
        TS_ASSIGN_OR_RETURN(config.extra_blocked_names,
                            HiddenNames(&inputs->prompt, refine.prompt));
      }
      config.template_texts = prompt::PromptBuilder::TemplateTexts();
      config.exempt_class_names = SentClassNames(inputs->prompt);
      config.test_constants = CompiledTestConstants(inputs->prompt, test_path, test_classes);
      config.denied_keys = inputs->denied_keys;
      if (options.dry_run) TS_RETURN_IF_ERROR(MakeDirs(config.dry_run_dir));
      absl::StatusOr<std::unique_ptr<gateway::LlmClient>> made =
          options.gateway.empty() ? gateway::MakeGatewayClient(config)
                                  : options.make_gateway_client(config);
      if (!made.ok()) return Fail(options, made.status());
      client = *std::move(made);
    }
    TS_ASSIGN_OR_RETURN(RefineOutcome outcome,
                        RefineMethod(*inputs, client.get(), validator, method_dir,
                                     options.out_dir, refine));
    if (!outcome.stop.ok() && run.stopped.ok()) {
      run.stopped = absl::Status(outcome.stop.code(),
                                 absl::StrCat(selector, ": ", outcome.result.reason()));
    }
    run.dry_run = run.dry_run || outcome.dry_run;
    if (outcome.result.status() == v1::INFER_SUCCESS && !outcome.result.contract().empty()) {
      check::ValidateRequest request = base;
      // The contract as validated: its .jml file, else its clauses.
      request.contract = outcome.result.contract();
      if (!outcome.result.contract_file().empty() && !outcome.contract_file_text.empty()) {
        request.contract = outcome.contract_file_text;
        request.contract_file = absl::StrCat(options.out_dir, "/", outcome.result.contract_file());
      }
      request.has_observations = true;
      request.observations = inputs->prompt.observations;
      std::string key = StrengthKey(request);
      if (earlier.strength().measured() && earlier.strength_key() == key) {
        if (progress) {
          progress(absl::StrCat(selector, ": strength kept (an earlier run measured it on the "
                                          "same contract, observations and bounds)"));
        }
        *outcome.result.mutable_strength() = earlier.strength();
        outcome.result.set_strength_key(key);
        TS_RETURN_IF_ERROR(WriteJsonFile(method_dir + "/result.json", outcome.result));
        *run.summary.add_results() = outcome.result;
        run.last_rounds.push_back(outcome.last_round);
        continue;
      }
      absl::StatusOr<check::ValidationReport> measured = validator->MeasureStrength(request);
      if (StopSignal() != 0) {
        // The measure may rest on queries the stop cut short: the result is
        // written again, measured, by the re-run (its rounds are kept).
        TS_RETURN_IF_ERROR(RemoveAll(method_dir + "/result.json"));
        return absl::CancelledError(
            absl::StrCat(StopReason(), " while measuring the strength of ", selector));
      }
      if (measured.ok()) {
        *outcome.result.mutable_strength() = StrengthProto(measured->strength);
        outcome.result.set_strength_key(key);
      } else {
        outcome.result.mutable_strength()->set_note(
            absl::StrCat("strength not measured: ", measured.status().message()));
      }
      TS_RETURN_IF_ERROR(WriteJsonFile(method_dir + "/result.json", outcome.result));
    }
    *run.summary.add_results() = outcome.result;
    run.last_rounds.push_back(outcome.last_round);
  }
  TS_RETURN_IF_ERROR(WriteSummary(options, run.summary, &run.text));
  return run;
}

}  // namespace tracespec::loop
