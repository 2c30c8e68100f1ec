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
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "agent/loop/run_dir.h"
#include "common/files.h"
#include "common/status.h"
#include "common/subprocess.h"
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

constexpr const char* kMutantsNotMeasured =
    "n/a (not measured: no mutant runner is wired into this bench yet)";

struct Task {
  std::string name;  // "kelvin", "examples/bank"
  bool function = false;  // the outcome is a function of the arguments
  std::string what;
  std::string dir;  // the project's source directory
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
  double seconds = 0;
  double consistency_seconds = 0;
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
    if (words.size() < 3 || (words[1] != "function" && words[1] != "state")) {
      return absl::InvalidArgumentError(absl::StrCat(
          list, ":", line_no, ": expected NAME KIND WHAT with KIND function or state"));
    }
    Task task;
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

TaskResult RunTask(const Task& task, const std::string& tracespec, const std::string& work_dir) {
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
    row.seconds = m.seconds();
    row.consistency_seconds = m.consistency().seconds();
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
  bool AllMet() const { return SuccessMet() && PinnedMet() && CompletenessMet() && SpeedMet(); }
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
      if (r.measured && r.perturbed > 0) {
        completeness.push_back(100.0 * r.rejected / r.perturbed);
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

void PrintTable(const std::vector<Task>& tasks, const std::vector<TaskResult>& results,
                const Totals& t, int jobs) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"task", "kind", "method", "outcome", "history", "pinned", "complete",
                   "mutants t/c/only", "method s", "task s"});
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
      if (r.weak) outcome += " (weak)";
      cells.push_back({r.task, tasks[i].function ? "function" : "state", method, outcome,
                       r.history.empty() ? "-" : r.history, Determinism(r), Completeness(r),
                       "n/a", absl::StrFormat("%.1f", r.seconds),
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
    }
  }
  std::printf("\n");
  std::printf("tasks %d, methods %d: Success %d, Fail %d, Error %d, Stopped %d; weak %d\n",
              t.tasks, t.methods, t.success, t.fail, t.error, t.stopped, t.weak);
  std::printf("Success %d%% of methods, %d Error (goal >= 95%%, no Error): %s\n",
              Percent(t.success, t.methods), t.error, Met(t.SuccessMet()).c_str());
  std::printf(
      "result pinned on every observation: %d of %d function tasks (%d%%) (goal >= 85%%): %s\n",
      t.function_pinned, t.function_tasks, Percent(t.function_pinned, t.function_tasks),
      Met(t.PinnedMet()).c_str());
  std::printf("median completeness %.1f%% over %d measured methods (goal >= 90%%): %s\n",
              t.median_completeness, t.completeness_rows, Met(t.CompletenessMet()).c_str());
  std::printf("mutants (tests / contract / contract only): %s\n", kMutantsNotMeasured);
  std::printf("examples/bank dropped-checksum-update mutant: %s\n", kMutantsNotMeasured);
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
      w.Key("mutants");
      w.Null();
      w.Key("seconds");
      w.Double(r.seconds);
      w.Key("consistency_seconds");
      w.Double(r.consistency_seconds);
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
  w.Key("function_tasks");
  w.Int(t.function_tasks);
  w.Key("function_tasks_pinned");
  w.Int(t.function_pinned);
  w.Key("median_completeness");
  w.Double(t.median_completeness);
  w.Key("mutants");
  w.Null();
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
               "                      [--keep] [--task NAME]... [--jobs N] [--json]\n"
               "  --tasks DIR     the task projects and tasks.txt's directory (default: the\n"
               "                  source tree's bench/pipeline)\n"
               "  --examples DIR  where examples/NAME tasks live (default: the source tree's)\n"
               "  --tracespec BIN the tracespec binary (default: the one built with this bench)\n"
               "  --work DIR      where the projects are copied and run (default: a fresh\n"
               "                  temporary directory, removed at the end unless --keep)\n"
               "  --task NAME     run only this task (repeatable; exact name from tasks.txt)\n"
               "  --jobs N        tasks run at once (default 1)\n"
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

  bool temporary = work_dir.empty();
  if (temporary) {
    absl::StatusOr<std::string> dir = tracespec::MakeTempDir("tracespec-bench-pipeline-");
    if (!dir.ok()) {
      std::fprintf(stderr, "bench_pipeline: %s\n", std::string(dir.status().message()).c_str());
      return 4;
    }
    work_dir = *dir;
  } else if (absl::Status made = tracespec::MakeDirs(work_dir); !made.ok()) {
    std::fprintf(stderr, "bench_pipeline: %s\n", std::string(made.message()).c_str());
    return 4;
  }

  // Tasks are taken in list order by `jobs` workers; the rows are printed
  // in list order once all are done.
  std::vector<TaskResult> results(tasks.size());
  std::atomic<size_t> next{0};
  std::atomic<int> done{0};
  std::mutex print_mu;
  auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (size_t i = next++; i < tasks.size(); i = next++) {
      results[i] = RunTask(tasks[i], tracespec, work_dir);
      std::lock_guard<std::mutex> lock(print_mu);
      int n = ++done;
      for (const Row& r : results[i].rows) {
        std::fprintf(stderr, "bench_pipeline: [%d/%zu] %s %s: %s %s (%.1fs)\n", n, tasks.size(),
                     r.task.c_str(), r.method.c_str(), r.outcome.c_str(), r.history.c_str(),
                     r.seconds);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::min<int>(jobs, static_cast<int>(tasks.size())); ++j) {
    threads.emplace_back(worker);
  }
  for (std::thread& t : threads) t.join();
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
