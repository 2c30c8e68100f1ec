// bench/pipeline: the whole pipeline of `tracespec run` on small projects
// written for it (bench/pipeline/tasks/NAME, listed in tasks.txt) and on
// examples/bank. Per task: a fresh copy of the project in a work
// directory, then the real `tracespec run` binary on it — the project's
// build command, its JUnit tests under the probe, the built-in synthesizer
// with counterexample-guided refinement, both checks, and the strength of
// every contract that passed (determinism and output-perturbation
// completeness) — and its run.json read back. One row per target method,
// then the totals against the goals of the pipeline. Each task is its own
// process, so `--jobs` tasks run side by side without sharing anything.
//
//   bench_pipeline [--tasks DIR] [--examples DIR] [--tracespec BIN]
//                  [--work DIR] [--keep] [--task NAME]... [--jobs N] [--json]
//
// Exit status: 0 every goal that was measured is met, 1 some goal is not
// met (or a task ended in Error), 2 bad flags, 3 a malformed task list,
// 4 no work directory.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "agent/loop/run_dir.h"
#include "agent/strength/mutation.h"
#include "bench/common/runs.h"
#include "common/files.h"
#include "common/status.h"
#include "common/subprocess.h"
#include "project/config.h"
#include "tracespec/v1/run.pb.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace {

namespace fs = std::filesystem;
namespace v1 = tracespec::v1;
using tracespec::v1::MethodRun;

// The goals of the pipeline (issue 16, and issue 13 for the slowest method).
constexpr double kSuccessGoal = 0.95;
constexpr double kPinnedGoal = 0.85;
constexpr double kCompletenessGoal = 90.0;
constexpr double kBenchSecondsGoal = 600.0;
constexpr double kMethodSecondsGoal = 30.0;

// The mutant analysis of a contract (agent/strength), serialized across
// the workers: it runs in this process.
std::mutex mutants_mu;

struct MutantOptions {
  int max_per_method = 5;   // 0: none measured
  double check_timeout = 10;  // per consistency check of a mutant
};

struct Task {
  std::string name;  // "kelvin", "examples/bank"
  bool function = false;  // the outcome is a function of the arguments
  std::string what;
  std::string dir;  // the project's source directory
  // Its bug shows only on inputs longer than the default bounds (KIND
  // "function/long-input-bug"): its contract must not come out complete.
  bool long_input_bug = false;
};

struct Row {
  std::string task;
  std::string method;
  // "Success", "Fail", "Error", "Stopped".
  std::string outcome;
  std::string history;
  std::string reason;
  bool measured = false;
  int observations = 0;
  int pinned = 0;
  int undecided = 0;
  int perturbed = 0;
  int rejected = 0;
  bool weak = false;
  bool vacuous = false;  // holds but says nothing about the outcome
  double seconds = 0;
  double consistency_seconds = 0;
  // The final contract's consistency verdict (run.json, typed): its status,
  // whether it is complete, and the bounds that cut something.
  std::string consistency_status;
  bool consistency_complete = false;
  bool consistency_proved = false;
  std::vector<std::string> cuts;
  // Mutants (agent/strength): measured only for a Success.
  bool mutants_measured = false;
  std::string mutants_note;  // why not measured, or the runner's notes
  int mutants = 0;
  int killed_by_tests = 0;
  int killed_by_contract = 0;
  int contract_only = 0;
  int survived = 0;  // killed by neither (equivalent mutants included)
  int mutants_undecided = 0;
  double mutants_seconds = 0;
  // A removed store of a field named "checksum" killed by the contract
  // only: its label; the bank goal.
  std::string checksum_mutant;
  bool checksum_contract_only = false;
};

struct TaskResult {
  std::vector<Row> rows;
  double seconds = 0;  // the whole RunProject, build and observe included
  double build_seconds = 0;  // the project's build command (javac)
  // Every method got a contract that passed, and each pins its outcome on
  // every observation it was measured on.
  bool all_pinned = false;
};

absl::StatusOr<std::vector<Task>> LoadTasks(const std::string& list, const std::string& tasks_dir,
                                            const std::string& examples_dir) {
  TS_ASSIGN_OR_RETURN(std::string text, tracespec::ReadFile(list));
  std::vector<Task> tasks;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::vector<absl::string_view> words =
        absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    Task task;
    if (words.size() >= 2) {
      task.long_input_bug = absl::ConsumeSuffix(&words[1], "/long-input-bug");
    }
    if (words.size() < 3 || (words[1] != "function" && words[1] != "state")) {
      return absl::InvalidArgumentError(absl::StrCat(
          list, ":", line_no,
          ": expected NAME KIND WHAT with KIND function or state (optionally "
          "followed by /long-input-bug)"));
    }
    task.name = std::string(words[0]);
    task.function = words[1] == "function";
    task.what = absl::StrJoin(words.begin() + 2, words.end(), " ");
    if (absl::ConsumePrefix(&words[0], "examples/")) {
      task.dir = absl::StrCat(examples_dir, "/", words[0]);
    } else {
      task.dir = absl::StrCat(tasks_dir, "/", task.name);
    }
    if (!tracespec::FileExists(absl::StrCat(task.dir, "/tracespec.textproto"))) {
      return absl::InvalidArgumentError(absl::StrCat(list, ":", line_no, ": task '", task.name,
                                                     "' has no ", task.dir,
                                                     "/tracespec.textproto"));
    }
    tasks.push_back(std::move(task));
  }
  // Every project under tasks/ must be listed (so none is silently left out).
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(tasks_dir, ec)) {
    if (!entry.is_directory()) continue;
    std::string name = entry.path().filename().string();
    if (std::none_of(tasks.begin(), tasks.end(), [&](const Task& t) { return t.name == name; })) {
      return absl::InvalidArgumentError(
          absl::StrCat(list, ": task directory '", name, "' is not listed"));
    }
  }
  if (ec) return absl::NotFoundError(absl::StrCat(tasks_dir, ": ", ec.message()));
  return tasks;
}

// Copies the project's sources, leaving out what a run or build left there.
absl::Status CopyProject(const std::string& from, const std::string& to) {
  TS_RETURN_IF_ERROR(tracespec::RemoveAll(to));
  TS_RETURN_IF_ERROR(tracespec::MakeDirs(to));
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(from, ec)) {
    std::string name = entry.path().filename().string();
    if (name == "target" || name == "tracespec-out") continue;
    fs::copy(entry.path(), fs::path(to) / name, fs::copy_options::recursive, ec);
    if (ec) break;
  }
  if (ec) return absl::InternalError(absl::StrCat("copying ", from, " to ", to, ": ", ec.message()));
  return absl::OkStatus();
}

// Error also when the method was never observed or could not be started.
std::string Outcome(const MethodRun& m) {
  if (m.status() != tracespec::v1::METHOD_RUN_INFERRED) return "Error";
  std::string name = tracespec::loop::InferStatusName(m.infer_status());
  return name == "Unknown" ? "Error" : name;
}

// The last non-empty line of `text`.
std::string LastLine(const std::string& text) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n', absl::SkipWhitespace());
  return lines.empty() ? "" : std::string(lines.back());
}

absl::StatusOr<v1::RunSummary> RunProject(const std::string& tracespec, const std::string& dir,
                                          double* seconds) {
  tracespec::SubprocessOptions options;
  options.stdout_path = dir + ".log";
  options.stderr_path = dir + ".log";
  TS_ASSIGN_OR_RETURN(tracespec::SubprocessResult run,
                      tracespec::RunSubprocess({tracespec, "run", dir}, options));
  *seconds = run.seconds;
  v1::RunSummary summary;
  absl::Status read = tracespec::loop::ReadJsonFile(dir + "/tracespec-out/run.json", &summary);
  if (!run.Succeeded() || !read.ok()) {
    absl::StatusOr<std::string> log = tracespec::ReadFile(dir + ".log");
    return absl::InternalError(absl::StrCat("tracespec run: ", run.Describe(), ": ",
                                            log.ok() ? LastLine(*log) : "", " (", dir, ".log)"));
  }
  return summary;
}

// Mutants of the method's bytecode against the project's tests and the
// contract stored in OUT/specs. Tasks from examples/ get every mutant (the
// bank goal names one), the others at most `options.max_per_method`.
void MeasureMutants(const Task& task, const std::string& dir, const MethodRun& m,
                    const MutantOptions& options, Row* row) {
  if (row->outcome != "Success" || options.max_per_method == 0) return;
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<tracespec::strength::MutantResult> result =
      [&]() -> absl::StatusOr<tracespec::strength::MutantResult> {
    TS_ASSIGN_OR_RETURN(tracespec::project::Project project, tracespec::project::LoadProject(dir));
    tracespec::strength::MutantRunOptions o;
    o.method = m.method();
    o.classpath = tracespec::project::MainClassPath(project);
    TS_ASSIGN_OR_RETURN(o.contract, tracespec::ReadFile(absl::StrCat(
                                        dir, "/tracespec-out/", m.spec_file())));
    o.contract_file = m.spec_file();
    if (project.config.bounds().unwind() > 0) o.unwind = project.config.bounds().unwind();
    if (project.config.bounds().max_array() > 0) o.max_array = project.config.bounds().max_array();
    o.timeout_seconds = options.check_timeout;
    o.test_classpath = tracespec::project::FullClassPath(project);
    TS_ASSIGN_OR_RETURN(o.test_classes, tracespec::project::ResolveTests(project));
    o.max_mutants = absl::StartsWith(task.name, "examples/") ? 0 : options.max_per_method;
    o.progress = [&](const std::string& line) {
      std::fprintf(stderr, "bench_pipeline: %s %s: %s\n", task.name.c_str(), m.method().c_str(),
                   line.c_str());
    };
    std::lock_guard<std::mutex> lock(mutants_mu);
    return tracespec::strength::RunMutants(o);
  }();
  row->mutants_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) {
    row->mutants_note = std::string(result.status().message());
    return;
  }
  row->mutants_measured = result->tests_run && result->contract_checked;
  row->mutants_note = absl::StrJoin({result->tests_note, result->contract_note}, "; ",
                                    [](std::string* out, const std::string& note) {
                                      absl::StrAppend(out, note.empty() ? "-" : note);
                                    });
  if (result->tests_note.empty() && result->contract_note.empty()) row->mutants_note.clear();
  row->mutants = static_cast<int>(result->mutants.size());
  row->killed_by_tests = result->killed_by_tests;
  row->killed_by_contract = result->killed_by_contract;
  row->contract_only = result->contract_only;
  row->survived = result->survived;
  row->mutants_undecided = result->contract_undecided;
  for (const tracespec::strength::MutantOutcome& mutant : result->mutants) {
    if (mutant.kind == "removed field store" && absl::StrContains(mutant.label, "checksum")) {
      row->checksum_mutant = mutant.label;
      row->checksum_contract_only = mutant.killed_by_contract && !mutant.killed_by_tests;
    }
  }
}

TaskResult RunTask(const Task& task, const std::string& tracespec, const std::string& work_dir,
                   const MutantOptions& mutant_options) {
  TaskResult result;
  std::string dir = absl::StrCat(work_dir, "/", absl::StrReplaceAll(task.name, {{"/", "_"}}));
  absl::StatusOr<v1::RunSummary> run = [&]() -> absl::StatusOr<v1::RunSummary> {
    TS_RETURN_IF_ERROR(CopyProject(task.dir, dir));
    return RunProject(tracespec, dir, &result.seconds);
  }();
  if (!run.ok()) {
    Row row;
    row.task = task.name;
    row.method = "-";
    row.outcome = "Error";
    row.reason = std::string(run.status().message());
    result.rows.push_back(row);
    return result;
  }
  result.build_seconds = run->build_seconds();
  result.all_pinned = run->methods_size() > 0;
  for (const MethodRun& m : run->methods()) {
    Row row;
    row.task = task.name;
    row.method = m.method();
    row.outcome = Outcome(m);
    row.history = m.history();
    row.reason = m.reason();
    if (m.status() == tracespec::v1::METHOD_RUN_NOT_OBSERVED && row.reason.empty()) {
      row.reason = "not observed";
    }
    const tracespec::v1::Strength& s = m.strength();
    row.measured = s.measured();
    row.observations = s.observations();
    row.pinned = s.pinned();
    row.undecided = s.undecided();
    row.perturbed = s.perturbed();
    row.rejected = s.rejected();
    row.weak = s.weak();
    row.vacuous = s.vacuous();
    row.seconds = m.seconds();
    row.consistency_seconds = m.consistency().seconds();
    row.consistency_status = m.consistency().status();
    row.consistency_complete = m.consistency().complete();
    row.consistency_proved = m.consistency().proved();
    row.cuts.assign(m.consistency().cuts().begin(), m.consistency().cuts().end());
    MeasureMutants(task, dir, m, mutant_options, &row);
    if (row.outcome != "Success" || !row.measured || row.observations == 0 ||
        row.pinned != row.observations) {
      result.all_pinned = false;
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

int Percent(int part, int whole) { return whole == 0 ? 0 : part * 100 / whole; }

std::string Completeness(const Row& r) {
  if (!r.measured) return "-";
  if (r.perturbed == 0) return "n/a";
  return absl::StrFormat("%d%%", Percent(r.rejected, r.perturbed));
}

// "10: 7/5/2": mutants run, killed by the tests, by the contract, by the
// contract only.
std::string Mutants(const Row& r) {
  if (!r.mutants_measured) return "-";
  return absl::StrFormat("%d: %d/%d/%d", r.mutants, r.killed_by_tests, r.killed_by_contract,
                         r.contract_only);
}

std::string Determinism(const Row& r) {
  if (!r.measured) return "-";
  return absl::StrFormat("%d/%d", r.pinned, r.observations);
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string Met(bool met) { return met ? "met" : "NOT MET"; }

struct Totals {
  int tasks = 0;
  int methods = 0;
  int success = 0, fail = 0, error = 0, stopped = 0;
  int function_tasks = 0, function_pinned = 0;
  int weak = 0;
  int vacuous = 0;
  // Successes by their consistency verdict.
  int pass_complete = 0, pass_proved = 0, pass_within_bounds = 0;
  // Tasks whose bug only longer inputs show, and how many of them came out
  // complete (goal: none).
  int long_input_tasks = 0, long_input_complete = 0;
  double median_completeness = 0;
  int completeness_rows = 0;
  double bench_seconds = 0;
  double task_seconds = 0;   // sum over the tasks of their whole run
  double build_seconds = 0;  // of which the build commands
  std::string slowest_method;
  double slowest_method_seconds = 0;
  std::string slowest_check;
  double slowest_check_seconds = 0;
  bool full = false;  // every listed task ran (the 10-minute goal applies)
  // Mutants, over the methods where they were measured.
  int mutant_methods = 0;
  int mutants = 0, killed_by_tests = 0, killed_by_contract = 0, contract_only = 0;
  int survived = 0, mutants_undecided = 0;
  double mutants_seconds = 0;
  // examples/bank's deposit (the README's example): the removed checksum store.
  bool bank_ran = false;
  std::string checksum_mutant;
  bool checksum_contract_only = false;
  int MissedByTests() const { return mutants - killed_by_tests; }
  // Equivalent mutants are not detected, so they count among the missed
  // ones: the share is a lower bound.
  bool MutantsMet() const { return mutant_methods == 0 || 2 * contract_only >= MissedByTests(); }
  bool BankMet() const { return !bank_ran || checksum_contract_only; }
  bool SuccessMet() const {
    return error == 0 && methods > 0 && success >= kSuccessGoal * methods;
  }
  bool PinnedMet() const { return function_pinned >= kPinnedGoal * function_tasks; }
  bool CompletenessMet() const {
    return completeness_rows > 0 && median_completeness >= kCompletenessGoal;
  }
  bool SpeedMet() const {
    return slowest_method_seconds < kMethodSecondsGoal &&
           (!full || bench_seconds < kBenchSecondsGoal);
  }
  // Every goal that this bench measures (not the mutant goals).
  bool AllMet() const {
    return SuccessMet() && PinnedMet() && CompletenessMet() && SpeedMet() && MutantsMet() &&
           BankMet();
  }
};

Totals Summarize(const std::vector<Task>& tasks, const std::vector<TaskResult>& results,
                 double bench_seconds, bool full) {
  Totals t;
  t.tasks = static_cast<int>(tasks.size());
  t.bench_seconds = bench_seconds;
  t.full = full;
  std::vector<double> completeness;
  for (size_t i = 0; i < tasks.size(); ++i) {
    t.task_seconds += results[i].seconds;
    t.build_seconds += results[i].build_seconds;
    if (tasks[i].function) {
      ++t.function_tasks;
      if (results[i].all_pinned) ++t.function_pinned;
    }
    for (const Row& r : results[i].rows) {
      ++t.methods;
      if (r.outcome == "Success") ++t.success;
      else if (r.outcome == "Fail") ++t.fail;
      else if (r.outcome == "Stopped") ++t.stopped;
      else ++t.error;
      if (r.weak) ++t.weak;
      if (r.vacuous) ++t.vacuous;
      if (r.outcome == "Success" && r.consistency_status == "PASS") {
        if (r.consistency_complete) ++t.pass_complete;
        else if (r.consistency_proved) ++t.pass_proved;
        else ++t.pass_within_bounds;
      }
      if (tasks[i].long_input_bug) {
        ++t.long_input_tasks;
        if (r.consistency_complete) ++t.long_input_complete;
      }
      if (r.measured && r.perturbed > 0) {
        completeness.push_back(100.0 * r.rejected / r.perturbed);
      }
      if (r.mutants_measured) {
        ++t.mutant_methods;
        t.mutants += r.mutants;
        t.killed_by_tests += r.killed_by_tests;
        t.killed_by_contract += r.killed_by_contract;
        t.contract_only += r.contract_only;
        t.survived += r.survived;
        t.mutants_undecided += r.mutants_undecided;
      }
      t.mutants_seconds += r.mutants_seconds;
      if (tasks[i].name == "examples/bank" && absl::StrContains(r.method, "#deposit(")) {
        t.bank_ran = true;
        if (!r.checksum_mutant.empty()) {
          t.checksum_mutant = absl::StrCat(r.method, " ", r.checksum_mutant);
          t.checksum_contract_only = r.checksum_contract_only;
        }
      }
      if (r.seconds > t.slowest_method_seconds) {
        t.slowest_method_seconds = r.seconds;
        t.slowest_method = r.method;
      }
      if (r.consistency_seconds > t.slowest_check_seconds) {
        t.slowest_check_seconds = r.consistency_seconds;
        t.slowest_check = r.method;
      }
    }
  }
  t.completeness_rows = static_cast<int>(completeness.size());
  t.median_completeness = Median(completeness);
  return t;
}

// "complete", "proved", "bounds: <cuts>" for a PASS; the status otherwise.
std::string ConsistencyCell(const Row& r) {
  if (r.consistency_status.empty()) return "-";
  if (r.consistency_status != "PASS") return r.consistency_status;
  if (r.consistency_complete) return "complete";
  if (r.consistency_proved) return "proved";
  return absl::StrCat("bounds: ", absl::StrJoin(r.cuts, "; "));
}

void PrintTable(const std::vector<Task>& tasks, const std::vector<TaskResult>& results,
                const Totals& t, int jobs) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"task", "kind", "method", "outcome", "history", "consistency", "pinned",
                   "complete", "mutants t/c/only", "method s", "task s"});
  for (size_t i = 0; i < tasks.size(); ++i) {
    bool first = true;
    for (const Row& r : results[i].rows) {
      std::string method = r.method;
      size_t hash = method.find('#');
      if (hash != std::string::npos) {
        size_t dot = method.rfind('.', hash);
        if (dot != std::string::npos) method = method.substr(dot + 1);
      }
      std::string outcome = r.outcome;
      if (r.vacuous) {
        outcome += " (says nothing)";
      } else if (r.weak) {
        outcome += " (weak)";
      }
      cells.push_back({r.task, tasks[i].function ? "function" : "state", method, outcome,
                       r.history.empty() ? "-" : r.history, ConsistencyCell(r), Determinism(r),
                       Completeness(r),
                       Mutants(r), absl::StrFormat("%.1f", r.seconds),
                       first ? absl::StrFormat("%.1f", results[i].seconds) : ""});
      first = false;
    }
  }
  std::vector<size_t> width(cells[0].size(), 0);
  for (const auto& row : cells) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : cells) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      absl::StrAppend(&line, row[c]);
      if (c + 1 < row.size()) line.append(width[c] - row[c].size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
  // Why a method did not succeed.
  for (size_t i = 0; i < tasks.size(); ++i) {
    for (const Row& r : results[i].rows) {
      if (r.outcome != "Success" && !r.reason.empty()) {
        std::printf("%s %s: %s: %s\n", r.task.c_str(), r.method.c_str(), r.outcome.c_str(),
                    r.reason.c_str());
      }
      if (!r.mutants_note.empty()) {
        std::printf("%s %s: mutants: %s\n", r.task.c_str(), r.method.c_str(),
                    r.mutants_note.c_str());
      }
    }
  }
  std::printf("\n");
  std::printf(
      "tasks %d, methods %d: Success %d, Fail %d, Error %d, Stopped %d; weak %d, of them saying "
      "nothing about the outcome %d (goal: 0)\n",
      t.tasks, t.methods, t.success, t.fail, t.error, t.stopped, t.weak, t.vacuous);
  std::printf("Success by consistency verdict: complete %d, proved by induction %d, within bounds %d\n",
              t.pass_complete, t.pass_proved, t.pass_within_bounds);
  if (t.long_input_tasks > 0) {
    std::printf("tasks whose bug only longer inputs show: %d, of them complete %d (goal: 0): %s\n",
                t.long_input_tasks, t.long_input_complete, Met(t.long_input_complete == 0).c_str());
  }
  std::printf("Success %d%% of methods, %d Error (goal >= 95%%, no Error): %s\n",
              Percent(t.success, t.methods), t.error, Met(t.SuccessMet()).c_str());
  std::printf(
      "result pinned on every observation: %d of %d function tasks (%d%%) (goal >= 85%%): %s\n",
      t.function_pinned, t.function_tasks, Percent(t.function_pinned, t.function_tasks),
      Met(t.PinnedMet()).c_str());
  std::printf("median completeness %.1f%% over %d measured methods (goal >= 90%%): %s\n",
              t.median_completeness, t.completeness_rows, Met(t.CompletenessMet()).c_str());
  if (t.mutant_methods == 0) {
    std::printf("mutants: not measured (--mutants 0, or no Success)\n");
  } else {
    std::printf(
        "mutants on %d methods: %d run, tests kill %d, contract kills %d, contract only %d, "
        "survived %d, contract undecided %d (%.1f s)\n",
        t.mutant_methods, t.mutants, t.killed_by_tests, t.killed_by_contract, t.contract_only,
        t.survived, t.mutants_undecided, t.mutants_seconds);
    std::printf(
        "contract kills %d of the %d mutants the tests miss (%d%%; equivalent mutants are not "
        "detected and count as missed) (goal >= 50%% of the non-equivalent ones): %s\n",
        t.contract_only, t.MissedByTests(), Percent(t.contract_only, t.MissedByTests()),
        Met(t.MutantsMet()).c_str());
  }
  if (t.bank_ran) {
    std::printf("examples/bank dropped-checksum-update mutant: %s (goal: contract only): %s\n",
                t.checksum_mutant.empty()
                    ? "not among the mutants measured"
                    : absl::StrCat(t.checksum_mutant, t.checksum_contract_only
                                                          ? ", killed by the contract only"
                                                          : ", not a contract-only kill")
                          .c_str(),
                Met(t.BankMet()).c_str());
  }
  std::printf("tasks' runs %.1f s in all, of which their build commands (javac) %.1f s\n",
              t.task_seconds, t.build_seconds);
  if (t.full) {
    std::printf("whole bench %.1f s with --jobs %d (goal < 600 s): %s\n", t.bench_seconds, jobs,
                Met(t.bench_seconds < kBenchSecondsGoal).c_str());
  } else {
    std::printf("bench %.1f s with --jobs %d (a subset: the 600 s goal is for all tasks)\n",
                t.bench_seconds, jobs);
  }
  std::printf("slowest method %.1f s, %s (goal < 30 s): %s\n", t.slowest_method_seconds,
              t.slowest_method.c_str(), Met(t.slowest_method_seconds < kMethodSecondsGoal).c_str());
  std::printf(
      "slowest consistency check of a final contract %.2f s, %s (frame clauses alone: not "
      "measured)\n",
      t.slowest_check_seconds, t.slowest_check.c_str());
}

void PrintJson(const std::vector<Task>& tasks, const std::vector<TaskResult>& results,
               const Totals& t, int jobs) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("rows");
  w.StartArray();
  for (size_t i = 0; i < tasks.size(); ++i) {
    for (const Row& r : results[i].rows) {
      w.StartObject();
      w.Key("task");
      w.String(r.task.c_str());
      w.Key("kind");
      w.String(tasks[i].function ? "function" : "state");
      w.Key("method");
      w.String(r.method.c_str());
      w.Key("outcome");
      w.String(r.outcome.c_str());
      w.Key("history");
      w.String(r.history.c_str());
      w.Key("reason");
      w.String(r.reason.c_str());
      w.Key("strength_measured");
      w.Bool(r.measured);
      w.Key("observations");
      w.Int(r.observations);
      w.Key("pinned");
      w.Int(r.pinned);
      w.Key("undecided");
      w.Int(r.undecided);
      w.Key("perturbed");
      w.Int(r.perturbed);
      w.Key("rejected");
      w.Int(r.rejected);
      w.Key("weak");
      w.Bool(r.weak);
      w.Key("vacuous");
      w.Bool(r.vacuous);
      w.Key("mutants");
      if (r.mutants_measured) {
        w.StartObject();
        w.Key("run");
        w.Int(r.mutants);
        w.Key("killed_by_tests");
        w.Int(r.killed_by_tests);
        w.Key("killed_by_contract");
        w.Int(r.killed_by_contract);
        w.Key("contract_only");
        w.Int(r.contract_only);
        w.Key("survived");
        w.Int(r.survived);
        w.Key("contract_undecided");
        w.Int(r.mutants_undecided);
        w.Key("checksum_mutant");
        w.String(r.checksum_mutant.c_str());
        w.Key("seconds");
        w.Double(r.mutants_seconds);
        w.EndObject();
      } else {
        w.Null();
      }
      w.Key("mutants_note");
      w.String(r.mutants_note.c_str());
      w.Key("seconds");
      w.Double(r.seconds);
      w.Key("consistency_seconds");
      w.Double(r.consistency_seconds);
      w.Key("consistency");
      w.String(r.consistency_status.c_str());
      w.Key("consistency_complete");
      w.Bool(r.consistency_complete);
      w.Key("consistency_proved");
      w.Bool(r.consistency_proved);
      w.Key("cuts");
      w.StartArray();
      for (const std::string& c : r.cuts) w.String(c.c_str());
      w.EndArray();
      w.Key("task_seconds");
      w.Double(results[i].seconds);
      w.EndObject();
    }
  }
  w.EndArray();
  w.Key("totals");
  w.StartObject();
  w.Key("tasks");
  w.Int(t.tasks);
  w.Key("methods");
  w.Int(t.methods);
  w.Key("success");
  w.Int(t.success);
  w.Key("fail");
  w.Int(t.fail);
  w.Key("error");
  w.Int(t.error);
  w.Key("stopped");
  w.Int(t.stopped);
  w.Key("weak");
  w.Int(t.weak);
  w.Key("vacuous");
  w.Int(t.vacuous);
  w.Key("function_tasks");
  w.Int(t.function_tasks);
  w.Key("function_tasks_pinned");
  w.Int(t.function_pinned);
  w.Key("median_completeness");
  w.Double(t.median_completeness);
  w.Key("mutant_methods");
  w.Int(t.mutant_methods);
  w.Key("mutants");
  w.Int(t.mutants);
  w.Key("mutants_killed_by_tests");
  w.Int(t.killed_by_tests);
  w.Key("mutants_killed_by_contract");
  w.Int(t.killed_by_contract);
  w.Key("mutants_contract_only");
  w.Int(t.contract_only);
  w.Key("mutants_survived");
  w.Int(t.survived);
  w.Key("mutants_contract_undecided");
  w.Int(t.mutants_undecided);
  w.Key("checksum_mutant");
  w.String(t.checksum_mutant.c_str());
  w.Key("checksum_contract_only");
  w.Bool(t.checksum_contract_only);
  w.Key("jobs");
  w.Int(jobs);
  w.Key("all_tasks");
  w.Bool(t.full);
  w.Key("seconds");
  w.Double(t.bench_seconds);
  w.Key("task_seconds");
  w.Double(t.task_seconds);
  w.Key("build_seconds");
  w.Double(t.build_seconds);
  w.Key("slowest_method");
  w.String(t.slowest_method.c_str());
  w.Key("slowest_method_seconds");
  w.Double(t.slowest_method_seconds);
  w.Key("pass_complete");
  w.Int(t.pass_complete);
  w.Key("pass_proved");
  w.Int(t.pass_proved);
  w.Key("pass_within_bounds");
  w.Int(t.pass_within_bounds);
  w.Key("long_input_tasks");
  w.Int(t.long_input_tasks);
  w.Key("long_input_complete");
  w.Int(t.long_input_complete);
  w.Key("slowest_consistency_method");
  w.String(t.slowest_check.c_str());
  w.Key("slowest_consistency_seconds");
  w.Double(t.slowest_check_seconds);
  w.Key("goals_met");
  w.Bool(t.AllMet());
  w.EndObject();
  w.EndObject();
  std::printf("%s\n", buffer.GetString());
}

void Usage() {
  std::fprintf(stderr,
               "usage: bench_pipeline [--tasks DIR] [--examples DIR] [--tracespec BIN] [--work DIR]\n"
               "                      [--keep] [--task NAME]... [--jobs N] [--mutants N]\n"
               "                      [--mutant-timeout S] [--json]\n"
               "  --tasks DIR     the task projects and tasks.txt's directory (default: the\n"
               "                  source tree's bench/pipeline)\n"
               "  --examples DIR  where examples/NAME tasks live (default: the source tree's)\n"
               "  --tracespec BIN the tracespec binary (default: the one built with this bench)\n"
               "  --work DIR      where the projects are copied and run (default: a fresh\n"
               "                  temporary directory, removed at the end unless --keep)\n"
               "  --task NAME     run only this task (repeatable; exact name from tasks.txt)\n"
               "  --jobs N        tasks run at once (default 1)\n"
               "  --mutants N     mutants per method (default 5; 0: none; examples/ tasks:\n"
               "                  all of them)\n"
               "  --mutant-timeout S  per consistency check of a mutant (default 10)\n"
               "  --json          print the rows and totals as one JSON document\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string bench_dir = TRACESPEC_BENCH_PIPELINE_DIR;
  std::string examples_dir = TRACESPEC_BENCH_EXAMPLES_DIR;
  std::string tracespec = TRACESPEC_BENCH_BINARY;
  std::string work_dir;
  bool keep = false;
  bool json = false;
  int jobs = 1;
  MutantOptions mutant_options;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    if (arg == "--tasks" && value(&v)) {
      bench_dir = v;
    } else if (arg == "--examples" && value(&v)) {
      examples_dir = v;
    } else if (arg == "--tracespec" && value(&v)) {
      tracespec = v;
    } else if (arg == "--work" && value(&v)) {
      work_dir = v;
    } else if (arg == "--task" && value(&v)) {
      only.push_back(v);
    } else if (arg == "--jobs" && value(&v) && absl::SimpleAtoi(v, &jobs) && jobs >= 1) {
    } else if (arg == "--mutants" && value(&v) &&
               absl::SimpleAtoi(v, &mutant_options.max_per_method) &&
               mutant_options.max_per_method >= 0) {
    } else if (arg == "--mutant-timeout" && value(&v) &&
               absl::SimpleAtod(v, &mutant_options.check_timeout) &&
               mutant_options.check_timeout > 0) {
    } else if (arg == "--keep") {
      keep = true;
    } else if (arg == "--json") {
      json = true;
    } else {
      Usage();
      return 2;
    }
  }

  absl::StatusOr<std::vector<Task>> all =
      LoadTasks(bench_dir + "/tasks.txt", bench_dir + "/tasks", examples_dir);
  if (!all.ok()) {
    std::fprintf(stderr, "bench_pipeline: %s\n", std::string(all.status().message()).c_str());
    return 3;
  }
  std::vector<Task> tasks;
  for (const Task& task : *all) {
    if (only.empty() || std::find(only.begin(), only.end(), task.name) != only.end()) {
      tasks.push_back(task);
    }
  }
  for (const std::string& name : only) {
    if (std::none_of(all->begin(), all->end(), [&](const Task& t) { return t.name == name; })) {
      std::fprintf(stderr, "bench_pipeline: no task '%s' in %s/tasks.txt\n", name.c_str(),
                   bench_dir.c_str());
      return 2;
    }
  }

  bool temporary = false;
  absl::StatusOr<std::string> dir =
      tracespec::bench::OpenWorkDir(work_dir, "tracespec-bench-pipeline-", &temporary);
  if (!dir.ok()) {
    std::fprintf(stderr, "bench_pipeline: %s\n", std::string(dir.status().message()).c_str());
    return 4;
  }
  work_dir = *dir;

  // Tasks are taken in list order by `jobs` workers; the rows are printed
  // in list order once all are done.
  std::vector<TaskResult> results(tasks.size());
  auto start = std::chrono::steady_clock::now();
  tracespec::bench::RunInOrder(
      tasks.size(), jobs,
      [&](size_t i) { results[i] = RunTask(tasks[i], tracespec, work_dir, mutant_options); },
      [&](size_t i, int n) {
        for (const Row& r : results[i].rows) {
          std::fprintf(stderr, "bench_pipeline: [%d/%zu] %s %s: %s %s (%.1fs)\n", n,
                       tasks.size(), r.task.c_str(), r.method.c_str(), r.outcome.c_str(),
                       r.history.c_str(), r.seconds);
        }
      });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  Totals totals = Summarize(tasks, results, seconds, tasks.size() == all->size());
  if (json) {
    PrintJson(tasks, results, totals, jobs);
  } else {
    PrintTable(tasks, results, totals, jobs);
  }
  if (temporary && !keep) {
    (void)tracespec::RemoveAll(work_dir);
  } else {
    std::fprintf(stderr, "bench_pipeline: projects and their tracespec-out in %s\n",
                 work_dir.c_str());
  }
  return totals.AllMet() ? 0 : 1;
}
