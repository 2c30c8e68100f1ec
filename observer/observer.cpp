// `tracespec observe`: validate the request, run JUnit under the probe,
// post-process what the probe and the listener wrote; see observer.h.
#include "observer/observer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <set>
#include <thread>

#include <unistd.h>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/interrupt.h"
#include "common/owned_paths.h"
#include "common/log.h"
#include "common/proto_io.h"
#include "common/status.h"
#include "common/subprocess.h"
#include "google/protobuf/arena.h"
#include "google/protobuf/util/json_util.h"
#include "observer/command.h"
#include "observer/copy_check.h"
#include "common/sensitive_mention.h"
#include "observer/exclusion.h"
#include "observer/junit.h"
#include "observer/noninterference.h"
#include "observer/policy.h"
#include "observer/store.h"
#include "observer/summary.h"
#include "observer/target.h"
#include "tracespec/v1/probe.pb.h"

namespace tracespec::observer {
namespace {

// How long a command's JVMs get to shut down (and the probe to finish its
// files) after SIGTERM, before they are killed.
constexpr double kCommandGraceSeconds = 10;

// Everything checked before the JVM starts.
struct Plan {
  v1::ProbeConfig config;
  std::string policy_name;
  JunitCommand command;
};

absl::Status CheckClassPath(const std::string& classpath) {
  for (absl::string_view entry : absl::StrSplit(classpath, ':', absl::SkipEmpty())) {
    if (!FileExists(std::string(entry))) {
      return absl::NotFoundError(
          absl::StrCat("--classpath entry ", entry, " does not exist"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Plan> Prepare(const ObserveOptions& options) {
  Plan plan;
  bool command_run = !options.command.empty();
  if (command_run && !options.test_classes.empty()) {
    return absl::InvalidArgumentError("give either test classes (--tests) or a command, not both");
  }
  if (!command_run && options.test_classes.empty()) {
    return absl::InvalidArgumentError("no test classes given (--tests) and no command (-- COMMAND)");
  }
  if (command_run && !options.tests_src.empty()) {
    return absl::InvalidArgumentError("--tests-src applies to test runs, not to a command");
  }
  if (options.methods.empty()) {
    return absl::InvalidArgumentError("no target methods given (--method)");
  }
  if (options.out_dir.empty()) return absl::InvalidArgumentError("no output directory (--out)");
  if (options.noninterference == ObserveOptions::Noninterference::kOn &&
      (command_run || options.list_hot)) {
    return absl::InvalidArgumentError(
        "--noninterference applies to test runs (--tests), not to a command or --list-hot");
  }
  for (const std::string& test_class : options.test_classes) {
    TS_RETURN_IF_ERROR(CheckClassName(test_class, "--tests class"));
    plan.config.add_test_classes(test_class);
  }
  for (const std::string& spec : options.methods) {
    TS_ASSIGN_OR_RETURN(v1::ProbeTarget target, ParseTarget(spec));
    *plan.config.add_targets() = target;
  }
  if (options.policy_path.empty()) {
    TS_ASSIGN_OR_RETURN(*plan.config.mutable_policy(), DefaultPolicy());
    plan.policy_name = "built-in default";
  } else {
    TS_ASSIGN_OR_RETURN(*plan.config.mutable_policy(), LoadPolicy(options.policy_path));
    plan.policy_name = options.policy_path;
  }
  if (!options.tests_src.empty() && !IsDirectory(options.tests_src)) {
    return absl::NotFoundError(
        absl::StrCat("--tests-src ", options.tests_src, " is not a directory"));
  }
  TS_ASSIGN_OR_RETURN(plan.command.probe, FindProbe());
  plan.config.set_format_version(v1::FORMAT_VERSION_1);
  plan.config.set_max_trace_bytes(options.max_bytes);
  plan.config.set_max_methods(options.max_methods);
  plan.config.set_count_calls(options.list_hot);
  if (command_run) {
    if (FindInPath(options.command[0]).empty()) {
      return absl::NotFoundError(
          absl::StrCat("command ", options.command[0], ": program not found"));
    }
    plan.config.set_command_run(true);
    plan.config.set_status_per_process(true);
    return plan;
  }
  TS_ASSIGN_OR_RETURN(plan.command.java, FindJava());
  TS_ASSIGN_OR_RETURN(plan.command.listener_jar, FindListenerJar());
  TS_ASSIGN_OR_RETURN(plan.command.junit_jar, FindJunitJar());
  plan.command.classpath = options.classpath;
  plan.command.test_classes = options.test_classes;
  return plan;
}

// Resolves every target in the class files before the JVM starts or --out
// is touched, so that a misspelt --method leaves an earlier run's results
// as they were. Tests: against --classpath, where every target's class must
// be. A command: against the class path its java command line names
// (CommandClassPath); a class not there, every pattern, and a launcher's
// targets are left to the run, which reports what it never loaded.
absl::Status ResolveTargets(const ObserveOptions& options, const v1::ProbeConfig& config) {
  const bool command_run = !options.command.empty();
  const std::string path =
      command_run ? CommandClassPath(options.command, options.cwd) : options.classpath;
  classfile::ClassPath class_path;
  for (absl::string_view entry : absl::StrSplit(path, ':', absl::SkipEmpty())) {
    absl::Status added = class_path.AddEntry(std::string(entry));
    // A command's class path is read as far as it can be.
    if (!added.ok() && !command_run) return added;
  }
  const std::string where = command_run ? "the command's class path" : "--classpath";
  for (const v1::ProbeTarget& target : config.targets()) {
    TS_RETURN_IF_ERROR(ResolveTarget(target, &class_path, /*class_required=*/!command_run, where));
  }
  return absl::OkStatus();
}

// The probe's raw trace, indexed by sequence. Records stay serialized and
// are parsed when visited, so a long run is never held as messages.
class Trace {
 public:
  // Reads `path` and shows every record to `visit` in file order. A record
  // cut short by a dying JVM ends the trace; *damage then says so.
  absl::Status Read(const std::string& path, std::string* damage,
                    const std::function<void(const v1::Observation&)>& visit) {
    if (!FileExists(path)) return absl::OkStatus();  // Nothing was recorded.
    TS_ASSIGN_OR_RETURN(data_, ReadFile(path));
    std::vector<DelimitedRecord> records;
    absl::Status split = SplitDelimited(data_, "the probe's trace", &records);
    if (!split.ok()) *damage = std::string(split.message());
    // One arena, reset after each record: no allocation per value.
    std::vector<char> block(1 << 16);
    google::protobuf::ArenaOptions arena_options;
    arena_options.initial_block = block.data();
    arena_options.initial_block_size = block.size();
    google::protobuf::Arena arena(arena_options);
    std::vector<std::pair<uint64_t, DelimitedRecord>> ordered;
    ordered.reserve(records.size());
    for (const DelimitedRecord& record : records) {
      auto* observation = google::protobuf::Arena::CreateMessage<v1::Observation>(&arena);
      if (!Parse(record, observation)) {
        *damage = absl::StrCat("the probe's trace: corrupt record at byte ", record.offset);
        arena.Reset();
        continue;
      }
      visit(*observation);
      ordered.emplace_back(observation->sequence(), record);
      arena.Reset();
    }
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    records_ = std::move(ordered);
    return absl::OkStatus();
  }

  // Shows the records whose sequence `wanted` accepts to `visit`, in
  // sequence order (the others are not even parsed).
  absl::Status ForEachInOrder(
      const std::function<bool(uint64_t)>& wanted,
      const std::function<absl::Status(v1::Observation&)>& visit) const {
    v1::Observation observation;
    for (const auto& [sequence, record] : records_) {
      if (!wanted(sequence) || !Parse(record, &observation)) continue;
      TS_RETURN_IF_ERROR(visit(observation));
    }
    return absl::OkStatus();
  }

 private:
  bool Parse(const DelimitedRecord& record, v1::Observation* out) const {
    return out->ParseFromArray(data_.data() + record.body, static_cast<int>(record.size));
  }

  std::string data_;
  std::vector<std::pair<uint64_t, DelimitedRecord>> records_;  // by sequence
};

// Runs the bytecode copy check on the test classes against the targets.
absl::StatusOr<std::vector<CopyFinding>> CopiedTests(const ObserveOptions& options) {
  TS_ASSIGN_OR_RETURN(classfile::ClassPath class_path,
                      classfile::ClassPath::Create(options.classpath));
  std::map<std::string, std::set<std::string>> targets;
  for (const std::string& spec : options.methods) {
    TS_ASSIGN_OR_RETURN(v1::ProbeTarget target, ParseTarget(spec));
    if (target.pattern()) continue;  // Only named methods are checked.
    targets[target.class_name()].insert(target.method_name());
  }
  return FindBytecodeCopies(&class_path, options.test_classes, targets);
}

// Turns the probe status into problems with targets the user named.
// `runner` names what ran: "the tests" or "the command".
void TargetProblems(const v1::ProbeStatus& status, const std::string& runner,
                    v1::ObserveSummary* summary) {
  for (const v1::TargetStatus& t : status.targets()) {
    std::string message;
    if (t.target().pattern()) {
      if (!t.class_loaded()) {
        message = absl::StrCat("no class matching ", t.target().class_name(),
                               " was loaded by ", runner);
      } else if (t.methods_matched_size() == 0) {
        message = absl::StrCat("no public method matching ", t.target().method_name(),
                               " in the classes matching ", t.target().class_name(),
                               " that ", runner, " loaded");
      } else {
        continue;
      }
    } else if (!t.class_loaded()) {
      message = absl::StrCat("class ", t.target().class_name(),
                             " was never loaded by ", runner, " (check the name and ",
                             runner == "the tests" ? "--classpath" : "the command's class path",
                             ";"
                             " classes of the JDK itself cannot be observed)");
    } else if (t.methods_matched_size() == 0 && t.problems_size() > 0) {
      message = absl::StrJoin(t.problems(), "; ");
    } else if (t.methods_matched_size() == 0) {
      std::vector<std::string> available(t.methods_available().begin(),
                                         t.methods_available().end());
      std::sort(available.begin(), available.end());
      message = absl::StrCat("no method ", t.target().method_name(), t.target().jvm_descriptor(),
                             " in ", t.target().class_name(), " (it has: ",
                             absl::StrJoin(available, ", "), ")");
    } else {
      continue;
    }
    v1::TargetProblem* problem = summary->add_target_problems();
    problem->set_target(t.target().spec());
    problem->set_message(message);
  }
}

// Lists the target methods the tests never called, with 0 observations and
// a warning, in the summary's order of methods.
void NeverCalled(const v1::ProbeStatus& status, const std::string& runner,
                 v1::ObserveSummary* summary) {
  std::map<std::string, v1::MethodSummary> methods;
  for (const v1::MethodSummary& m : summary->methods()) methods[m.method()] = m;
  for (const v1::TargetStatus& t : status.targets()) {
    for (const std::string& matched : t.methods_matched()) {
      // A pattern's matched methods carry their class already.
      std::string label =
          t.target().pattern() ? matched : absl::StrCat(t.target().class_name(), "#", matched);
      if (methods.count(label) != 0) continue;
      v1::MethodSummary& m = methods[label];
      m.set_method(label);
      m.set_warning("never called by " + runner);
    }
  }
  summary->clear_methods();
  for (auto& [label, m] : methods) *summary->add_methods() = std::move(m);
}

std::string PrettyJson(const google::protobuf::Message& message) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  return out;
}

// The probe's status after a JUnit run: one JVM, one status file.
absl::StatusOr<v1::ProbeStatus> JunitStatus(const std::string& path, const std::string& log,
                                            const std::string& log_path,
                                            const SubprocessResult& jvm) {
  v1::ProbeStatus status;
  auto status_data = ReadFile(path);
  if (!status_data.ok() || !status.ParseFromString(*status_data)) {
    std::string reason = log.find("tracespec-probe:") != std::string::npos
                             ? log.substr(log.find("tracespec-probe:"))
                             : "the JVM did not load the probe";
    // A JVM that ended well did start: its probe could not leave a status.
    return absl::UnavailableError(absl::StrCat(
        jvm.Succeeded() ? "the probe left no status" : "the JVM failed to start", " (",
        jvm.Describe(), "): ", reason.substr(0, reason.find('\n')), " (see ", log_path, ")"));
  }
  return status;
}

// The probe's status after a command run: every JVM the command started
// that loaded the probe, merged.
absl::StatusOr<v1::ProbeStatus> CommandStatus(const ObserveOptions& options,
                                              const std::string& path, const std::string& log,
                                              const std::string& log_path,
                                              const SubprocessResult& jvm) {
  int jvms = 0;
  TS_ASSIGN_OR_RETURN(v1::ProbeStatus status, ReadStatuses(path, &jvms));
  if (jvms > 0) return status;
  size_t complaint = log.find("tracespec-probe:");
  if (complaint != std::string::npos) {
    std::string reason = log.substr(complaint);
    return absl::UnavailableError(absl::StrCat("the JVM could not load the probe (",
                                               jvm.Describe(), "): ",
                                               reason.substr(0, reason.find('\n')), " (see ",
                                               log_path, ")"));
  }
  return absl::NotFoundError(absl::StrCat(
      "the command ", options.command[0], " started no JVM (it ended with ", jvm.Describe(),
      "; its output: ", log_path,
      "): give a java command line, or a launcher that starts java and keeps "
      "JAVA_TOOL_OPTIONS"));
}

// When a command run loaded none of the target classes: what it loaded.
absl::Status NothingLoaded(const ObserveOptions& options, const v1::ProbeStatus& status,
                           const SubprocessResult& jvm) {
  std::set<std::string> classes;
  for (const v1::TargetStatus& t : status.targets()) {
    if (t.class_loaded()) return absl::OkStatus();
    classes.insert(t.target().class_name());
  }
  std::string loaded = TopPackages(status, /*limit=*/10);
  std::string instead =
      !status.vm_death_seen()
          ? absl::StrCat("it was stopped before the JVM could say what it loaded (",
                         jvm.Describe(), ")")
      : loaded.empty() ? "it loaded no classes outside the JDK"
                       : absl::StrCat("it loaded classes of: ", loaded);
  return absl::NotFoundError(absl::StrCat("the command ", options.command[0],
                                          " never loaded ", absl::StrJoin(classes, ", "),
                                          "; ", instead, " (it ended with ", jvm.Describe(),
                                          ")"));
}

// The refusal when the targets matched more than --max-methods methods.
absl::Status TooManyMethods(const ObserveOptions& options, const v1::ProbeStatus& status) {
  if (!status.method_limit_reached()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "the --method patterns matched more than --max-methods ", options.max_methods,
      " methods (", status.methods_refused(), " more were left alone); the run's "
      "observations were not written: name fewer classes or methods (observe --list-hot shows which are called), or raise "
      "--max-methods"));
}

// observe --list-hot: calls per instrumented method, most called first
// (ties by name), never-called ones last.
std::string HotList(const v1::ProbeStatus& status, const std::string& runner) {
  std::vector<std::pair<int64_t, std::string>> rows;
  int called = 0;
  for (const v1::MethodCount& c : status.method_counts()) {
    rows.emplace_back(-c.calls(), c.method());
    called += c.calls() > 0;
  }
  std::sort(rows.begin(), rows.end());
  std::string out = absl::StrCat("calls per target method (", called, " of ", rows.size(),
                                 " instrumented methods called by ", runner,
                                 "; counted, nothing recorded):\n");
  for (const auto& [negative, method] : rows) {
    absl::StrAppend(&out, absl::StrFormat("%10d  %s\n", -negative, method));
  }
  if (!status.vm_death_seen()) {
    absl::StrAppend(&out, "PARTIAL: a JVM ended without an orderly shutdown; its calls are not "
                          "counted\n");
  }
  return out;
}

// Why the observations end early when --max-bytes stopped the recording.
std::string LimitReason(const ObserveOptions& options) {
  return absl::StrCat("recording stopped at --max-bytes ", options.max_bytes,
                      "; later calls were not recorded");
}

// Why a command run's observations are not the whole run, or "".
std::string CommandIncomplete(const SubprocessResult& jvm, const v1::ProbeStatus& status,
                              const ObserveOptions& options) {
  const char* kUntilThen = "; the observations are those recorded until then";
  if (jvm.interrupted_by != 0) {
    return absl::StrCat("the run was stopped (", jvm.Describe(), ")", kUntilThen);
  }
  if (jvm.timed_out) {
    return absl::StrCat("the run was stopped at --timeout (", jvm.Describe(), ")", kUntilThen);
  }
  if (!status.vm_death_seen()) {
    return absl::StrCat("a JVM ended without an orderly shutdown (", jvm.Describe(), ")",
                        kUntilThen);
  }
  if (status.trace_limit_reached()) {
    return LimitReason(options);
  }
  return "";
}

// Every observation of a trace file; a record cut short by a dying JVM is
// dropped (Trace::Read warns about it for run A).
absl::StatusOr<std::vector<v1::Observation>> ReadTrace(const std::string& path) {
  std::vector<v1::Observation> out;
  std::string damage;  // not reported here
  TS_RETURN_IF_ERROR(
      Trace().Read(path, &damage, [&out](const v1::Observation& o) { out.push_back(o); }));
  return out;
}

// Cancelled when SIGINT or SIGTERM stopped the test JVM `jvm` (the `what`
// run) or asked this process to stop: nothing is written then, and what
// the output directory held stays.
absl::Status Interrupted(const SubprocessResult& jvm, const std::string& what) {
  int signal = jvm.interrupted_by != 0 ? jvm.interrupted_by : StopSignal();
  if (signal == 0) return absl::OkStatus();
  return absl::CancelledError(absl::StrCat(
      InterruptReason(signal), jvm.interrupted_by != 0 ? " while " : " after ", what,
      " ran under the probe", jvm.interrupted_by != 0 ? " (the JVM was stopped)" : "",
      "; nothing was written"));
}

// The file a substituted run's probe creates at its first substitution
// (ProbeConfig.substituted_marker_path), in the run's directory.
constexpr char kSubstitutedMarker[] = "substituted";

// One more run of plan.command (its selection) under the probe, everything
// under `dir` (a temporary directory: its trace and log never reach the
// output). `what` names the run in errors; `substitute` substitutes every
// denied field (--noninterference); `cancel`, when set, kills the JVM.
struct Rerun {
  TestResults results;
  SubprocessResult jvm;
  uint64_t substitutions = 0;
};

absl::StatusOr<Rerun> RunAgain(const Plan& plan, const ObserveOptions& options,
                               const std::string& dir, const std::string& what,
                               bool substitute, const std::atomic<bool>* cancel = nullptr) {
  TS_RETURN_IF_ERROR(MakeDirs(dir));
  v1::ProbeConfig config = plan.config;
  config.set_output_path(dir + "/trace.pb");
  config.set_status_path(dir + "/status.pb");
  config.set_log_path(std::filesystem::absolute(dir + "/jvm.log").string());
  config.set_find_denied_constants(false);  // run A's say
  JunitCommand command = plan.command;
  if (substitute) {
    config.set_substitute_denied(true);
    config.set_substitution_seed(options.noninterference_seed);
    config.set_substituted_marker_path(dir + "/" + kSubstitutedMarker);
    // Only what was recorded is compared, not how fast: C1 alone saves the
    // JIT's CPU (a quarter of a short JUnit run's) for the run beside.
    command.jvm_options.push_back("-XX:TieredStopAtLevel=1");
  }
  std::string config_path = dir + "/probe-config.pb";
  TS_RETURN_IF_ERROR(WriteFileAtomic(config_path, config.SerializeAsString()));
  command.probe_config = config_path;
  command.results_path = dir + "/results.tsv";
  SubprocessOptions run;
  run.stdout_path = dir + "/jvm.log";
  run.stderr_path = run.stdout_path;
  run.timeout_seconds = options.timeout_seconds;
  run.stop_on_interrupt = true;
  run.cancel = cancel;
  Rerun out;
  TS_ASSIGN_OR_RETURN(out.jvm, RunSubprocess(BuildCommand(command), run));
  TS_RETURN_IF_ERROR(Interrupted(out.jvm, "the " + what));
  std::string log = ReadFile(run.stdout_path).value_or("");
  TS_ASSIGN_OR_RETURN(v1::ProbeStatus status,
                      JunitStatus(config.status_path(), log, "the " + what + "'s output", out.jvm));
  if (status.errors_size() > 0) {
    return absl::InternalError(
        absl::StrCat("the probe failed in the ", what, ": ", status.errors(0)));
  }
  out.results = ParseTestResults(ReadFile(command.results_path).value_or(""));
  out.substitutions = status.substitutions();
  return out;
}

// Writes `observations` as the probe's trace at `path` (length-delimited).
absl::Status WriteTrace(const std::string& path, const std::vector<v1::Observation>& observations) {
  std::string data;
  for (const v1::Observation& o : observations) AppendDelimited(o, &data);
  return WriteFileAtomic(path, data);
}

// Says which environment variables and system properties the policy's
// deny_env and deny_property found set in the JVM (their values are
// denied like a denied field's), or that they found none.
void DeniedSourcesNote(const v1::RedactionPolicy& policy, const v1::ProbeStatus& status) {
  if (policy.deny_env().empty() && policy.deny_property().empty()) return;
  if (status.denied_sources().empty()) {
    Info("the policy's deny_env and deny_property name no environment variable or system "
         "property the JVM started with");
    return;
  }
  Info(absl::StrCat("values denied like a denied field's (never recorded, substituted in the "
                    "noninterference runs): ",
                    absl::StrJoin(std::set<std::string>(status.denied_sources().begin(),
                                                        status.denied_sources().end()),
                                  ", ")));
}

struct SubstitutedRuns {
  Withheld withheld;
  int runs = 1;
  uint64_t substitutions = 0;
  // Why the runs were not compared, when they were not (summary.proto).
  std::string not_compared;
};

// Whether the substituted runs happen. `not_compared` says why not when
// noninterference was not turned off but cannot run: a command cannot be
// run again the same way, and a policy that denies no field leaves nothing
// to substitute (then no second JVM runs: it would cost a run and decide
// nothing).
struct NoninterferencePlan {
  bool run = false;
  std::string not_compared;
};

NoninterferencePlan PlanNoninterference(const ObserveOptions& options,
                                        const v1::RedactionPolicy& policy) {
  if (options.noninterference == ObserveOptions::Noninterference::kOff || options.list_hot) {
    return {};
  }
  if (!options.command.empty()) {
    return {false,
            "a command cannot be run again the same way, so values derived from denied fields "
            "are not withheld (only the fields themselves)"};
  }
  if ((policy.deny().empty() && policy.deny_env().empty() && policy.deny_property().empty()) ||
      policy.record().empty()) {
    return {false, "the policy denies no field: nothing to substitute, no second run"};
  }
  return {true, ""};
}

// One substituted run (B or C) of --noninterference; its errors name it.
absl::StatusOr<Rerun> RunSubstituted(const Plan& plan, const ObserveOptions& options,
                                     const std::string& dir, const std::string& what,
                                     const std::atomic<bool>* cancel = nullptr) {
  absl::StatusOr<Rerun> run = RunAgain(plan, options, dir, what, true, cancel);
  if (run.ok()) return run;
  return absl::Status(run.status().code(),
                      absl::StrCat("noninterference: ", what, ": ", run.status().message()));
}

// A substituted run on a thread of its own, so that its JVM runs while
// another one does. Dropped unfinished, it kills its JVM and waits for the
// thread: nothing outlives it but files in its directory.
class BackgroundRun {
 public:
  BackgroundRun(const Plan& plan, const ObserveOptions& options, std::string dir,
                std::string what)
      : plan_(plan), options_(options), dir_(std::move(dir)), what_(std::move(what)) {
    thread_ = std::thread(
        [this] { result_ = RunSubstituted(plan_, options_, dir_, what_, &cancel_); });
  }
  BackgroundRun(const BackgroundRun&) = delete;
  BackgroundRun& operator=(const BackgroundRun&) = delete;
  ~BackgroundRun() {
    cancel_ = true;
    if (thread_.joinable()) thread_.join();
  }

  // Waits for the run to end; its trace is then dir()/trace.pb.
  absl::StatusOr<Rerun> Wait() {
    if (thread_.joinable()) thread_.join();
    return std::move(result_);
  }
  const std::string& dir() const { return dir_; }

 private:
  const Plan plan_;
  const ObserveOptions options_;
  const std::string dir_;
  const std::string what_;
  std::atomic<bool> cancel_{false};
  absl::StatusOr<Rerun> result_ = absl::UnknownError("not run");
  std::thread thread_;
};

// Run C started early: as soon as run B has substituted a value (its
// probe's marker file appears), A and B most likely differ, and C, which
// repeats B, needs nothing of them, so it starts then, beside them, rather
// than after B. It is used only when C is needed after all (A and B
// differ); otherwise dropped (killed) unread. A run that never substitutes
// (examples/loan) never starts it.
class EarlyRun {
 public:
  EarlyRun(std::string marker, std::function<std::unique_ptr<BackgroundRun>()> start)
      : marker_(std::move(marker)), start_(std::move(start)) {
    thread_ = std::thread([this] {
      while (!stop_) {
        if (::access(marker_.c_str(), F_OK) == 0) {
          run_ = start_();
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
  }
  EarlyRun(const EarlyRun&) = delete;
  EarlyRun& operator=(const EarlyRun&) = delete;
  ~EarlyRun() { Stop(); }

  // Stops watching; the run, if it started.
  std::unique_ptr<BackgroundRun> Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return std::move(run_);
  }

 private:
  const std::string marker_;
  const std::function<std::unique_ptr<BackgroundRun>()> start_;
  std::atomic<bool> stop_{false};
  std::unique_ptr<BackgroundRun> run_;
  std::thread thread_;
};

// The denied constants' keys in the summary the last observe wrote into
// `out_dir` (none when there is none or it does not parse).
std::set<uint64_t> LastDeniedConstants(const std::string& out_dir) {
  v1::ObserveSummary last;
  absl::StatusOr<std::string> json = ReadFile(out_dir + "/summary.json");
  if (!json.ok() || !FromJson(*json, &last).ok()) return {};
  return std::set<uint64_t>(last.denied_constants().begin(), last.denied_constants().end());
}

// observe --noninterference: the substituted runs and the comparison.
// Run B needs nothing of run A but its selection, so it starts beside the
// JVM whose selection it repeats — run A, then each isolation run (which
// drops the B of the previous selection) — instead of after it. Its
// results are used only once every run before it has ended, in a fixed
// order (A, then B, then C), so which JVM ends first changes nothing
// written; a failed run's error names it and is reported before anything
// is written.
class Substitution {
 public:
  Substitution(const ObserveOptions& options, bool enabled, std::string work)
      : options_(options), enabled_(enabled), work_(std::move(work)) {}

  // Starts B with plan.command's selection, unless it runs already;
  // `beside` names the JVM it runs beside, if any.
  void StartBeside(const Plan& plan, const std::string& beside) {
    if (!enabled_) return;
    if (b_ != nullptr && selectors_ == plan.command.selectors) return;
    early_c_.reset();
    b_.reset();
    ++started_;
    selectors_ = plan.command.selectors;
    Plan substituted = plan;
    for (uint64_t key : constants_) substituted.config.add_substitute_constants(key);
    Info(absl::StrCat("noninterference: running the tests with every denied field",
                      constants_.empty() ? "" : " and the constants equal to one",
                      " substituted (seed ", options_.noninterference_seed, ")",
                      beside.empty() ? "" : absl::StrCat(", beside ", beside)));
    std::string b_dir = absl::StrCat(work_, "/b", started_);
    b_ = std::make_unique<BackgroundRun>(substituted, options_, b_dir, "substituted run B");
    std::string c_dir = absl::StrCat(work_, "/c", started_);
    early_c_ = std::make_unique<EarlyRun>(
        absl::StrCat(b_dir, "/", kSubstitutedMarker), [substituted, options = options_, c_dir] {
          return std::make_unique<BackgroundRun>(substituted, options, c_dir,
                                                 "substituted run C");
        });
  }

  // Before B starts beside A: the keys of the constants the last observe
  // into the same directory found equal to a denied value. B and C start
  // with them substituted; when run A finds the same keys they need not
  // start again after A (SubstituteConstants), which costs one JVM run of
  // wall time. What A finds decides, never the file: a file that names other
  // keys (or was edited) only costs that restart.
  void StartWithConstantsOfTheLastRun(std::set<uint64_t> keys) {
    if (!enabled_ || b_ != nullptr) return;
    constants_ = std::move(keys);
  }

  // The keys of the constants run A found equal to a denied value
  // (ProbeStatus.denied_constants): the substituted runs must replace them
  // too, and no others, so B and C, when started beside A with another set,
  // start again.
  void SubstituteConstants(const google::protobuf::RepeatedField<uint64_t>& keys) {
    if (!enabled_) return;
    std::set<uint64_t> found(keys.begin(), keys.end());
    const char* noun = found.size() == 1 ? " constant" : " constants";
    if (found == constants_) {
      if (!found.empty()) {
        Info(absl::StrCat("noninterference: ", found.size(), noun,
                          " of the loaded classes equal a denied value the tests read, the same "
                          "as the last observe found: the substituted runs started with ",
                          found.size() == 1 ? "it" : "them", " substituted where loaded"));
      }
      return;
    }
    constants_ = std::move(found);
    early_c_.reset();
    b_.reset();
    if (constants_.empty()) {
      Info("noninterference: none of the constants the last observe substituted equals a denied "
           "value now: the substituted runs start again without them");
      return;
    }
    Info(absl::StrCat("noninterference: ", constants_.size(), noun,
                      " of the loaded classes equal a denied value the tests read (a literal "
                      "passed to a constructor, a constant javac inlined): the substituted "
                      "runs start again with ",
                      constants_.size() == 1 ? "it" : "them", " substituted where loaded"));
  }
  int64_t constants() const { return static_cast<int64_t>(constants_.size()); }

  // After run A (and its isolation runs): waits for B, and C when A and B
  // differ, with plan.command's selection, and rewrites A's trace with
  // what differed withheld. The observations of `excluded` tests are not
  // compared: after an isolation run B and C do not run them (their data
  // must not reach the other tests there either), and they never leave.
  absl::StatusOr<SubstitutedRuns> Compare(const Plan& plan,
                                          const std::map<std::string, std::string>& excluded) {
    StartBeside(plan, "");
    SubstitutedRuns out;
    TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> all, ReadTrace(plan.config.output_path()));
    std::vector<v1::Observation> a;
    std::vector<v1::Observation> not_compared;
    for (v1::Observation& o : all) {
      (excluded.count(o.test_id()) != 0 ? not_compared : a).push_back(std::move(o));
    }
    TS_ASSIGN_OR_RETURN(Rerun b, b_->Wait());
    // C, if B's first substitution started it; else it starts below if needed.
    std::unique_ptr<BackgroundRun> c = early_c_->Stop();
    out.substitutions = b.substitutions;
    out.runs = 2;
    // Nothing substituted: B ran with the same data as A, so nothing A
    // recorded can depend on a denied field's value, and what differs is
    // nondeterminism; it is kept, and no run C is needed to say so.
    if (b.substitutions == 0) {
      out.not_compared = "the substituted run read no denied field";
      Info(absl::StrCat("noninterference: ", out.not_compared, "; nothing withheld"));
      return out;
    }
    TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> b_trace, ReadTrace(b_->dir() + "/trace.pb"));
    std::vector<v1::Observation> trial = a;
    if (!WithholdDifferences(&trial, b_trace, nullptr).any()) return out;
    // C started with B's first substitution (EarlyRun), not together with
    // B: that would cost a third JVM at once when B substitutes nothing, the
    // common case. Measured with bench_noninterference (two rounds of
    // medians of 7, 2 cores shared with other builds, load 6-10), observe
    // --noninterference against plain observe, C after A and B / C with B,
    // when B still ran under field access watches: examples/loan (A = B)
    // 1.09x, 1.56x / 2.04x, 2.03x; examples/bank (A != B) 3.83x, 3.89x /
    // 3.03x, 3.72x.
    Info("noninterference: the runs differ; once more with the same substitutes, to tell "
         "nondeterminism apart");
    std::string c_dir = absl::StrCat(work_, "/c", started_);
    if (c == nullptr) c = std::make_unique<BackgroundRun>(plan, options_, c_dir, "substituted run C");
    TS_RETURN_IF_ERROR(c->Wait().status());
    out.runs = 3;
    TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> c_trace, ReadTrace(c_dir + "/trace.pb"));
    out.withheld = WithholdDifferences(&a, b_trace, &c_trace);
    for (v1::Observation& o : not_compared) a.push_back(std::move(o));
    TS_RETURN_IF_ERROR(WriteTrace(plan.config.output_path(), a));
    return out;
  }

 private:
  const ObserveOptions options_;
  const bool enabled_;
  const std::string work_;
  int started_ = 0;  // B runs started: B<n> and C<n> live in work_/b<n>, work_/c<n>
  std::vector<std::string> selectors_;
  std::set<uint64_t> constants_;
  std::unique_ptr<BackgroundRun> b_;
  // Declared after b_: dropped first, its C with it.
  std::unique_ptr<EarlyRun> early_c_;
};

// Which tests of run A are excluded, and why: by their source (with
// --tests-src; what it does with a sensitive name), by their bytecode
// copying a target's body, by their recorded strings.
absl::StatusOr<std::map<std::string, std::string>> Exclusions(const ObserveOptions& options,
                                                              const v1::ProbeConfig& config,
                                                              const TestResults& results) {
  const auto& sensitive = config.policy().sensitive_names();
  std::map<std::string, std::string> excluded;
  // Fields run A recorded as ints and the like: a test reading one does
  // nothing with sensitive data, whatever its name.
  std::set<std::string> plain_names;
  if (!options.tests_src.empty() && !sensitive.empty()) {
    TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> recorded, ReadTrace(config.output_path()));
    plain_names = PlainValueNames(recorded);
  }
  for (const auto& [id, test] : results.tests) {
    if (test.kind() != v1::TEST_ENTRY_TEST) continue;
    std::string reason = SourceMention(options.tests_src, id, sensitive, &plain_names);
    if (!reason.empty()) excluded[id] = reason;
  }
  TS_ASSIGN_OR_RETURN(std::vector<CopyFinding> copies, CopiedTests(options));
  for (const CopyFinding& copy : copies) {
    std::string reason = absl::StrCat("its bytecode copies the body of ", copy.target, " (",
                                      static_cast<int>(copy.share * 100),
                                      "% of its fingerprints)");
    if (results.tests.count(copy.test_method) != 0) {
      excluded.emplace(copy.test_method, reason);
      continue;
    }
    // A helper, or a nested, local or anonymous class of the test file:
    // any test of the file may use it (copy_check.h says why not fewer).
    std::set<std::string> file(copy.file_classes.begin(), copy.file_classes.end());
    for (const auto& [id, test] : results.tests) {
      if (test.kind() != v1::TEST_ENTRY_TEST) continue;
      if (file.count(id.substr(0, id.find('#'))) != 0) {
        excluded.emplace(id, absl::StrCat(copy.test_method, ", in its test file: ", reason));
      }
    }
  }
  // The trace is read once more below; here only its strings are looked at
  // (a cut-short record is warned about there).
  Trace trace;
  std::string damage;
  TS_RETURN_IF_ERROR(trace.Read(config.output_path(), &damage, [&](const v1::Observation& o) {
    if (o.test_id().empty() || excluded.count(o.test_id()) != 0) return;
    std::string reason = DataMention(o, sensitive);
    if (!reason.empty()) excluded[o.test_id()] = reason;
  }));
  return excluded;
}

// The failed entries and the calls each one covers, with the reason
// those calls are flagged. Only TEST_STATUS_FAILED: a skipped test (an
// assumption that failed) says nothing against the calls it made, and an
// interrupted one ends the run as incomplete anyway. A failed test covers
// its own calls; a test class whose own code failed (a container: its
// @BeforeAll or @AfterAll, its static initializer) every call attributed
// to it or to a class nested in it (what that code called — the probe
// names it after the frame, `pkg.C#setUp` — and, as the failure may be
// about them, its tests' calls) that no failed test of its own claims.
// An engine's failure and a failing JVM exit (TEST_ENTRY_JVM) name no
// calls: they stay entries, which `check` refuses.
class FailedCalls {
 public:
  explicit FailedCalls(const TestResults& results) {
    for (const auto& [id, test] : results.tests) {
      if (test.status() != v1::TEST_STATUS_FAILED) continue;
      const std::string failure =
          test.failure_class().empty() ? "" : absl::StrCat(" (", test.failure_class(), ")");
      if (test.kind() == v1::TEST_ENTRY_TEST) {
        reasons_[id] = absl::StrCat("the test failed", failure,
                                    ": its calls are used for local checks only");
      } else if (test.kind() == v1::TEST_ENTRY_CONTAINER && !absl::StartsWith(id, "[")) {
        reasons_[id] = absl::StrCat("the test class ", id.substr(0, id.find('#')),
                                    " failed outside its tests", failure,
                                    ": its calls are used for local checks only");
        if (id.find('#') == std::string::npos) classes_.push_back(id);
      }
    }
  }

  // The entry a call attributed to `test_id` counts for, with its reason,
  // or nullptr.
  const std::pair<const std::string, std::string>* Find(const std::string& test_id) const {
    auto it = reasons_.find(test_id);
    if (it != reasons_.end()) return &*it;
    if (test_id.empty()) return nullptr;
    const std::string cls = test_id.substr(0, test_id.find('#'));
    for (const std::string& c : classes_) {
      if (cls == c || absl::StartsWith(cls, c + "$")) return &*reasons_.find(c);
    }
    return nullptr;
  }

 private:
  std::map<std::string, std::string> reasons_;  // entry id -> reason
  std::vector<std::string> classes_;            // test classes that failed
};

// JUnit's JVM exited with a failure status (ConsoleLauncher: 1 when a
// test or container failed) although the listener reported no failure:
// the run is not taken for passed (TEST_ENTRY_JVM, "JUnit").
void NoteUnreportedFailure(const SubprocessResult& jvm, TestResults* results) {
  if (jvm.exit_code <= 0 || jvm.signal != 0 || jvm.timed_out || !results->plan_finished) return;
  for (const auto& [id, test] : results->tests) {
    if (test.status() == v1::TEST_STATUS_FAILED) return;
  }
  v1::TestSummary& entry = results->tests["JUnit"];
  entry.set_test_id("JUnit");
  entry.set_status(v1::TEST_STATUS_FAILED);
  entry.set_kind(v1::TEST_ENTRY_JVM);
  Warn(absl::StrCat("JUnit's JVM ended with ", jvm.Describe(),
                    " but reported no failing test or container: the run is counted as failed"));
}

struct Isolation {
  int runs = 0;
  int64_t tests = 0;  // selected in the last run
  double seconds = 0;
  std::vector<std::string> outcome_changed;
  bool finished = true;
  std::string jvm;  // the last run's SubprocessResult::Describe()
};

// When run A excluded tests: runs the others again in a JVM in which no
// excluded test runs, so that no static field, singleton or cache carries
// an excluded test's data into their observations. A test such a run's
// recorded strings exclude may have left data for the tests after it, so
// the rest run once more without it, until a run excludes nothing new.
// Rewrites the trace at plan->config.output_path(): the last run's
// observations of tests not excluded (nothing else of run A's survives),
// then each excluded test's observations from the run that excluded it,
// numbered after them. Updates `results` (kept tests: the last run's
// outcome) and `excluded`, and leaves the last run's selection in
// plan->command.selectors, for the substituted runs of --noninterference.
absl::StatusOr<Isolation> RunIsolated(Plan* plan, const ObserveOptions& options,
                                      const std::string& work, TestResults* results,
                                      std::map<std::string, std::string>* excluded,
                                      Substitution* substitution) {
  Isolation out;
  const auto& sensitive = plan->config.policy().sensitive_names();
  TS_ASSIGN_OR_RETURN(std::vector<v1::Observation> previous,
                      ReadTrace(plan->config.output_path()));
  const TestResults full = *results;
  std::vector<v1::Observation> excluded_calls;
  std::vector<v1::Observation> clean;
  std::set<std::string> newly;  // excluded, observations not yet set aside
  for (const auto& [id, reason] : *excluded) newly.insert(id);
  const TestResults* previous_results = &full;
  Rerun run;
  while (!newly.empty()) {
    // The newly excluded tests keep what the run that excluded them recorded.
    std::vector<v1::Observation> theirs;
    for (v1::Observation& o : previous) {
      if (newly.count(o.test_id()) != 0) theirs.push_back(std::move(o));
    }
    std::stable_sort(theirs.begin(), theirs.end(), [](const auto& x, const auto& y) {
      return x.sequence() < y.sequence();
    });
    for (v1::Observation& o : theirs) excluded_calls.push_back(std::move(o));
    for (const std::string& id : newly) {
      auto it = previous_results->tests.find(id);
      if (it != previous_results->tests.end()) results->tests[id] = it->second;
    }
    newly.clear();
    std::vector<std::string> kept;
    for (const auto& [id, test] : full.tests) {
      if (test.kind() == v1::TEST_ENTRY_TEST && excluded->count(id) == 0) kept.push_back(id);
    }
    plan->command.selectors = MethodSelectors(kept, options.classpath);
    if (plan->command.selectors.empty()) {
      clean.clear();  // Nothing left to run: no observation of run A's stays.
      break;
    }
    ++out.runs;
    Info(absl::StrCat("isolation: running ", kept.size(), " test", kept.size() == 1 ? "" : "s",
                      " again in a JVM without the ", excluded->size(), " excluded"));
    std::string dir = absl::StrCat(work, "/isolated", out.runs);
    substitution->StartBeside(*plan, "the isolation run");
    TS_ASSIGN_OR_RETURN(run, RunAgain(*plan, options, dir, "isolation run", false));
    out.seconds += run.jvm.seconds;
    if (!run.results.plan_started) {
      // Fail closed: without the isolation run nothing of the others may go.
      return PlanNotStarted(ReadFile(dir + "/jvm.log").value_or(""), run.jvm.exit_code,
                            run.jvm.Describe(), options.test_classes, "the isolation run's output");
    }
    TS_ASSIGN_OR_RETURN(clean, ReadTrace(dir + "/trace.pb"));
    for (const v1::Observation& o : clean) {
      if (o.test_id().empty() || excluded->count(o.test_id()) != 0) continue;
      std::string reason = DataMention(o, sensitive);
      if (reason.empty()) continue;
      (*excluded)[o.test_id()] = reason;
      newly.insert(o.test_id());
    }
    previous = clean;
    previous_results = &run.results;
  }
  // The clean observations, without any (there should be none) of excluded
  // tests, in sequence order; the excluded tests' after them.
  std::vector<v1::Observation> merged;
  uint64_t next = 0;
  for (v1::Observation& o : clean) {
    if (excluded->count(o.test_id()) != 0) continue;
    next = std::max(next, o.sequence() + 1);
    merged.push_back(std::move(o));
  }
  std::stable_sort(merged.begin(), merged.end(), [](const auto& x, const auto& y) {
    return x.sequence() < y.sequence();
  });
  for (v1::Observation& o : excluded_calls) {
    o.set_sequence(next++);
    merged.push_back(std::move(o));
  }
  TS_RETURN_IF_ERROR(WriteTrace(plan->config.output_path(), merged));

  // The kept tests' outcomes are the isolation run's; a change is reported.
  out.tests = static_cast<int64_t>(run.results.tests.size());
  out.jvm = run.jvm.Describe();
  out.finished = out.runs == 0 || run.results.plan_finished;
  // A container that failed in either run stays failed (its class may not
  // have run again); it is not an outcome that changed.
  for (const auto& [id, test] : run.results.tests) {
    if (test.kind() != v1::TEST_ENTRY_TEST) results->tests.emplace(id, test);
  }
  for (const auto& [id, test] : full.tests) {
    if (excluded->count(id) != 0 || test.kind() != v1::TEST_ENTRY_TEST) continue;
    auto it = run.results.tests.find(id);
    v1::TestStatus now = it != run.results.tests.end() ? it->second.status()
                                                       : v1::TEST_STATUS_UNSPECIFIED;
    if (it != run.results.tests.end()) results->tests[id] = it->second;
    if (now == test.status()) continue;
    out.outcome_changed.push_back(absl::StrCat(id, ": ", StatusName(test.status()),
                                               " with the excluded tests, ", StatusName(now),
                                               " without them"));
    Warn(absl::StrCat("outcome changed: ", out.outcome_changed.back()));
  }
  for (const std::string& id : run.results.unfinished) results->unfinished.push_back(id);
  return out;
}

}  // namespace

absl::StatusOr<ObserveResult> Observe(const ObserveOptions& request) {
  TS_RETURN_IF_ERROR(CheckClassPath(request.classpath));
  ObserveOptions options = request;
  TS_ASSIGN_OR_RETURN(options.test_classes,
                      ExpandTestClasses(request.test_classes, request.classpath, "--tests"));
  TS_ASSIGN_OR_RETURN(Plan plan, Prepare(options));
  TS_RETURN_IF_ERROR(ResolveTargets(options, plan.config));
  const bool command_run = !options.command.empty();
  TS_RETURN_IF_ERROR(PrepareOutputDir(options.out_dir));
  TS_ASSIGN_OR_RETURN(std::string work, MakeTempDir("tracespec-observe-"));
  struct Cleanup {
    std::string dir;
    ~Cleanup() { (void)RemoveAll(dir); }
  } cleanup{work};
  // Dropped before `cleanup`: a substituted run still going is stopped
  // before its directory is removed.
  const NoninterferencePlan noninterference =
      PlanNoninterference(options, plan.config.policy());
  if (!noninterference.not_compared.empty()) {
    Info(absl::StrCat("noninterference: not run: ", noninterference.not_compared));
  }
  Substitution substitution(options, noninterference.run, work);

  v1::ProbeConfig& config = plan.config;
  // The denied constants mask test literals in prompts and, with
  // noninterference, are substituted at their origin.
  config.set_find_denied_constants(!command_run);
  config.set_output_path(work + "/trace.pb");
  config.set_status_path(work + "/status.pb");
  std::string log_path = options.out_dir + "/jvm.log";
  // The probe redacts tainted values in the test JVM's output; a command's
  // JVMs may share theirs, so it is left alone.
  if (!command_run) config.set_log_path(std::filesystem::absolute(log_path).string());
  std::string config_path = work + "/probe-config.pb";
  TS_RETURN_IF_ERROR(WriteFileAtomic(config_path, config.SerializeAsString()));
  plan.command.probe_config = config_path;
  plan.command.results_path = work + "/results.tsv";

  TS_RETURN_IF_ERROR(RemoveAll(log_path));
  SubprocessOptions run;
  run.stdout_path = log_path;
  run.stderr_path = log_path;
  run.timeout_seconds = options.timeout_seconds;
  std::vector<std::string> argv;
  std::string injection;
  if (command_run) {
    const char* inherited = std::getenv("JAVA_TOOL_OPTIONS");
    TS_ASSIGN_OR_RETURN(CommandLaunch launch,
                        InjectProbe(options.command, plan.command.probe, config_path,
                                    inherited != nullptr ? inherited : ""));
    argv = std::move(launch.argv);
    run.env = std::move(launch.env);
    injection = launch.injection;
    // Ctrl-C and SIGTERM stop the command, not tracespec: what was recorded
    // is kept. SIGTERM lets the JVM shut down (the probe's last scrub).
    run.cwd = options.cwd;
    run.stop_on_interrupt = true;
    run.terminate_grace_seconds = kCommandGraceSeconds;
    run.user_umask = true;  // what the program writes is the user's
    Info(absl::StrCat("running ", options.command[0], " under the probe, injected with ",
                      injection == "-agentpath"
                          ? "-agentpath (the command runs java)"
                          : "JAVA_TOOL_OPTIONS (the command is not java; it must start java)",
                      " (output: ", log_path, ")"));
  } else {
    argv = BuildCommand(plan.command);
    // Ctrl-C and SIGTERM stop the test JVM too (it runs in its own process
    // group and would outlive us), and observe with it: nothing is written
    // (Interrupted), so a run's previous observations stay.
    run.stop_on_interrupt = true;
    Info(absl::StrCat("running ", absl::StrJoin(options.test_classes, ", "),
                      " under the probe (JVM output: ", log_path, ")"));
    substitution.StartWithConstantsOfTheLastRun(LastDeniedConstants(options.out_dir));
    substitution.StartBeside(plan, "them");
  }
  TS_ASSIGN_OR_RETURN(SubprocessResult jvm, RunSubprocess(argv, run));
  if (!command_run) TS_RETURN_IF_ERROR(Interrupted(jvm, "the tests"));

  std::string log = ReadFile(log_path).value_or("");
  TS_ASSIGN_OR_RETURN(v1::ProbeStatus status,
                      command_run ? CommandStatus(options, config.status_path(), log, log_path, jvm)
                                  : JunitStatus(config.status_path(), log, log_path, jvm));
  if (status.errors_size() > 0) {
    const std::string& error = status.errors(0);
    // A target's class file the probe cannot parse is the user's input.
    if (absl::StartsWith(error, "cannot read class ")) {
      return absl::DataLossError(absl::StrCat(error, " (a corrupt class file on --classpath)"));
    }
    return absl::InternalError(absl::StrCat("the probe failed: ", error));
  }
  if (command_run) TS_RETURN_IF_ERROR(NothingLoaded(options, status, jvm));
  TS_RETURN_IF_ERROR(TooManyMethods(options, status));
  TestResults results;
  if (!command_run) {
    results = ParseTestResults(ReadFile(plan.command.results_path).value_or(""));
    if (!results.plan_started) {
      // JUnit never got to run a test: nothing was recorded.
      return PlanNotStarted(log, jvm.exit_code, jvm.Describe(), options.test_classes, log_path);
    }
  }

  if (options.list_hot) {
    ObserveResult hot;
    hot.summary_text = HotList(status, command_run ? "the command" : "the tests");
    TS_RETURN_IF_ERROR(WriteFileAtomic(options.out_dir + "/hot.txt", hot.summary_text));
    Info(absl::StrCat("written: ", options.out_dir, "/{hot.txt,jvm.log}"));
    return hot;
  }

  substitution.SubstituteConstants(status.denied_constants());
  // Exclusions are decided on run A; when there are any, the other tests'
  // observations come from a run without the excluded tests.
  std::map<std::string, std::string> excluded;
  Isolation isolation;
  if (!command_run) {
    TS_ASSIGN_OR_RETURN(excluded, Exclusions(options, config, results));
    if (!excluded.empty()) {
      TS_ASSIGN_OR_RETURN(isolation,
                          RunIsolated(&plan, options, work, &results, &excluded, &substitution));
    }
  }

  if (!command_run) NoteUnreportedFailure(jvm, &results);

  SubstitutedRuns substituted;
  substituted.not_compared = noninterference.not_compared;
  if (noninterference.run) {
    TS_ASSIGN_OR_RETURN(substituted, substitution.Compare(plan, excluded));
  }

  v1::ObserveSummary summary;
  summary.set_format_version(v1::FORMAT_VERSION_1);
  for (uint64_t key : status.denied_constants()) summary.add_denied_constants(key);
  *summary.mutable_denied_text_keys() = status.denied_text_keys();
  *summary.mutable_denied_number_keys() = status.denied_number_keys();
  summary.set_noninterference_not_compared(substituted.not_compared);
  if (noninterference.run) {
    summary.set_noninterference(true);
    summary.set_noninterference_seed(options.noninterference_seed);
    summary.set_noninterference_runs(substituted.runs);
    summary.set_noninterference_substitutions(static_cast<int64_t>(substituted.substitutions));
    summary.set_noninterference_constants(substitution.constants());
    summary.set_withheld_dependent(substituted.withheld.dependent);
    summary.set_withheld_nondeterministic(substituted.withheld.nondeterministic);
    for (const std::string& t : substituted.withheld.tests) summary.add_tests_withheld(t);
  }
  if (isolation.runs > 0) {
    summary.set_isolation_run(true);
    summary.set_isolation_runs(isolation.runs);
    summary.set_isolation_tests(isolation.tests);
    summary.set_isolation_jvm_seconds(std::round(isolation.seconds * 1000) / 1000);
  }
  // Also without a run: tests that could not be selected did not run again.
  for (const std::string& c : isolation.outcome_changed) summary.add_isolation_outcome_changed(c);
  summary.set_policy(plan.policy_name);
  summary.set_jvm_result(jvm.Describe());
  summary.set_jvm_seconds(std::round(jvm.seconds * 1000) / 1000);
  for (const std::string& c : options.test_classes) summary.add_test_classes(c);
  if (command_run) {
    summary.set_command_program(options.command[0]);
    summary.set_injection(injection);
    std::string incomplete = CommandIncomplete(jvm, status, options);
    summary.set_complete(incomplete.empty());
    summary.set_incomplete_reason(incomplete);
  } else {
    summary.set_complete(results.plan_finished && isolation.finished &&
                         !status.trace_limit_reached());
    if (!results.plan_finished || !isolation.finished) {
      std::string during = results.unfinished.empty()
                               ? ""
                               : absl::StrCat(" during ", absl::StrJoin(results.unfinished, ", "));
      summary.set_incomplete_reason(absl::StrCat(
          results.plan_finished ? "the isolation run's JVM" : "the JVM",
          " ended before the tests finished", during, " (",
          results.plan_finished ? isolation.jvm : jvm.Describe(),
          "); the observations are those recorded until then"));
    } else if (status.trace_limit_reached()) {
      summary.set_incomplete_reason(LimitReason(options));
    }
  }

  // Failed entries are flagged only below, after the exclusions were
  // decided and the isolation and substituted runs are over: a failure is
  // no secret and must not make the other tests run again.
  const FailedCalls failed(results);
  std::map<std::string, int64_t> per_test;
  std::map<std::string, int64_t> covered;  // failed container -> the calls it covers
  std::map<std::pair<std::string, std::string>, int64_t> per_entry;
  ObservationCounter counter(std::vector<std::string>(status.withheld_fields().begin(),
                                                      status.withheld_fields().end()));
  Trace trace;
  std::string damage;
  int64_t cap = options.max_observations_per_method != 0
                    ? options.max_observations_per_method
                    : config.policy().max_observations_per_method();
  ObservationStore store(cap);
  TS_RETURN_IF_ERROR(trace.Read(config.output_path(), &damage, [&](const v1::Observation& o) {
    counter.Add(o);
    store.Note(o);
    if (command_run) {
      ++per_entry[{o.thread(), o.entry_point()}];
      return;
    }
    ++per_test[o.test_id()];
    const auto* failure = failed.Find(o.test_id());
    if (failure != nullptr && failure->first != o.test_id()) ++covered[failure->first];
  }));
  if (!damage.empty()) Warn(absl::StrCat("dropped a record cut short: ", damage));
  for (const auto& [key, count] : per_entry) {
    v1::EntryPointSummary* e = summary.add_entry_points();
    e->set_thread(key.first);
    e->set_entry_point(key.second);
    e->set_observations(count);
  }
  for (auto& [id, test] : results.tests) {
    v1::TestSummary* t = summary.add_tests();
    *t = test;
    t->set_observations(per_test[id] + covered[id]);
    auto it = excluded.find(id);
    if (it != excluded.end()) {
      t->set_excluded(true);
      t->set_excluded_reason(it->second);
      summary.set_tests_excluded(summary.tests_excluded() + 1);
    }
    switch (t->status()) {
      case v1::TEST_STATUS_PASSED: summary.set_tests_passed(summary.tests_passed() + 1); break;
      case v1::TEST_STATUS_FAILED: summary.set_tests_failed(summary.tests_failed() + 1); break;
      case v1::TEST_STATUS_SKIPPED: summary.set_tests_skipped(summary.tests_skipped() + 1); break;
      case v1::TEST_STATUS_INTERRUPTED:
        summary.set_tests_interrupted(summary.tests_interrupted() + 1);
        break;
      default: break;
    }
  }
  summary.set_tests_run(summary.tests_passed() + summary.tests_failed() +
                        summary.tests_interrupted());
  counter.Fill(&summary);
  summary.set_tainted_values(static_cast<int64_t>(status.tainted_values()));
  std::set<std::string> unnamed(status.classes_without_parameter_names().begin(),
                                status.classes_without_parameter_names().end());
  for (const std::string& c : unnamed) {
    summary.add_classes_without_parameter_names(c);
    Warn(absl::StrCat("compiled without -g: name rules cannot apply to arguments of ", c));
  }
  DeniedSourcesNote(config.policy(), status);
  const std::string runner = command_run ? "the command" : "the tests";
  TargetProblems(status, runner, &summary);
  NeverCalled(status, runner, &summary);
  store.Fill(&summary);

  // A signal during the runs after A or while they were compared: nothing
  // written, as when it stopped a JVM. (A command's run ends on it.)
  if (!command_run) TS_RETURN_IF_ERROR(Interrupted(SubprocessResult(), "the tests"));
  TS_RETURN_IF_ERROR(store.Open(options.out_dir));
  TS_RETURN_IF_ERROR(trace.ForEachInOrder(
      [&store](uint64_t sequence) { return store.Keeps(sequence); }, [&](v1::Observation& o) {
    auto it = excluded.find(o.test_id());
    if (it != excluded.end()) {
      o.set_excluded(true);
      o.set_excluded_reason(it->second);
    }
    const auto* failure = failed.Find(o.test_id());
    if (failure != nullptr) {
      o.set_test_failed(true);
      // A reason given first (a sensitive name, a copy) stays: it is the
      // one that keeps the observation from ever leaving.
      if (!o.excluded()) {
        o.set_excluded(true);
        o.set_excluded_reason(failure->second);
      }
    }
    return store.Write(o);
  }));
  TS_RETURN_IF_ERROR(store.Commit());
  TS_RETURN_IF_ERROR(WriteFileAtomic(options.out_dir + "/summary.json", PrettyJson(summary)));

  ObserveResult result;
  result.summary = summary;
  result.summary_text = FormatSummary(summary, options.out_dir);
  if (summary.target_problems_size() > 0) {
    const v1::TargetProblem& p = summary.target_problems(0);
    result.problem = absl::NotFoundError(absl::StrCat("--method ", p.target(), ": ", p.message()));
  } else if (command_run && jvm.interrupted_by != 0) {
    // Ctrl-C ends a command's capture; what it recorded is written above.
    result.problem = absl::CancelledError(summary.incomplete_reason());
  } else if (!summary.complete() && summary.incomplete_reason() != LimitReason(options)) {
    // A run cut short; a bound the user set (--max-bytes) is not a problem.
    result.problem = absl::UnavailableError(summary.incomplete_reason());
  }
  return result;
}

}  // namespace tracespec::observer
