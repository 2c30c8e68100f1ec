// bench/verify: runs `verify` on every task under bench/verify/tasks (one
// Java package per task, expected verdict in its header) and prints one row
// per task — expected, got, time, and whether a counterexample replays on
// the real JVM — then the totals.
//
//   verify_bench [--tasks DIR] [--filter SUBSTRING] [--timeout S] [--no-replay]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/files.h"
#include "common/subprocess.h"
#include "validator/symex/verify.h"

namespace {

using tracespec::symex::Verdict;

struct Task {
  std::string name;
  std::string source;
  std::string expect;  // SUCCESSFUL or FAILED
  tracespec::symex::Property property = tracespec::symex::Property::kAssert;
  int unwind = 2;
  int max_array = 4;
};

bool ParseTask(const std::string& dir, const std::string& name, Task* task) {
  task->name = name;
  task->source = dir + "/" + name + "/Main.java";
  auto text = tracespec::ReadFile(task->source);
  if (!text.ok()) return false;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    if (!absl::ConsumePrefix(&line, "// ")) continue;
    if (absl::ConsumePrefix(&line, "expect: ")) task->expect = std::string(line);
    if (absl::ConsumePrefix(&line, "property: ") && line == "no-runtime-exception") {
      task->property = tracespec::symex::Property::kNoRuntimeException;
    }
    if (absl::ConsumePrefix(&line, "unwind: ")) (void)absl::SimpleAtoi(line, &task->unwind);
    if (absl::ConsumePrefix(&line, "max-array: ")) (void)absl::SimpleAtoi(line, &task->max_array);
  }
  return task->expect == "SUCCESSFUL" || task->expect == "FAILED";
}

// Compiles and runs the replay driver; "yes" when the JVM throws the
// reported exception, "NO" otherwise.
std::string Replay(const tracespec::symex::VerifyResult& result, const std::string& work,
                   const std::string& classes, const std::string& task) {
  std::string dir = work + "/replay/" + task;
  if (!tracespec::MakeDirs(dir).ok()) return "NO (mkdir)";
  std::string file = dir + "/Verifier.java";
  if (!tracespec::WriteFileAtomic(file, result.driver).ok()) return "NO (write)";
  auto javac = tracespec::RunSubprocess({"javac", "-nowarn", "-d", dir + "/classes", file});
  if (!javac.ok() || !javac->Succeeded()) return "NO (javac)";
  auto run = tracespec::RunSubprocess(
      {"java", "-ea", "-cp", dir + "/classes:" + classes, task + ".Main"},
      tracespec::SubprocessOptions{{}, "", "", "", 60, ""});
  if (!run.ok()) return "NO (java)";
  std::string expected = absl::StrCat("Exception in thread \"main\" ", result.exception_class);
  return absl::StrContains(run->stderr_data, expected) ? "yes" : "NO";
}

}  // namespace

int main(int argc, char** argv) {
  std::string tasks_dir = TRACESPEC_BENCH_TASKS;
  std::string verifier_classes = TRACESPEC_VERIFIER_CLASSES_DIR;
  std::string filter;
  double timeout = 60;
  bool replay = true;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--tasks" && i + 1 < argc) tasks_dir = argv[++i];
    else if (arg == "--filter" && i + 1 < argc) filter = argv[++i];
    else if (arg == "--timeout" && i + 1 < argc) (void)absl::SimpleAtod(argv[++i], &timeout);
    else if (arg == "--no-replay") replay = false;
    else {
      std::fprintf(stderr,
                   "usage: verify_bench [--tasks DIR] [--filter S] [--timeout S] [--no-replay]\n");
      return 2;
    }
  }
  std::vector<Task> tasks;
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(tasks_dir)) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  std::vector<std::string> sources;
  for (const std::string& name : names) {
    Task task;
    if (!absl::StrContains(name, filter) || !ParseTask(tasks_dir, name, &task)) continue;
    tasks.push_back(task);
    sources.push_back(task.source);
  }
  auto work = tracespec::MakeTempDir("verify-bench-");
  if (!work.ok()) {
    std::fprintf(stderr, "verify_bench: %s\n", std::string(work.status().message()).c_str());
    return 4;
  }
  std::string classes = *work + "/classes";
  std::vector<std::string> javac = {"javac", "-nowarn", "-g", "-cp", verifier_classes, "-d", classes};
  javac.insert(javac.end(), sources.begin(), sources.end());
  auto compiled = tracespec::RunSubprocess(javac);
  if (!compiled.ok() || !compiled->Succeeded()) {
    std::fprintf(stderr, "verify_bench: javac failed:\n%s\n",
                 compiled.ok() ? compiled->stderr_data.c_str() : "cannot start javac");
    return 4;
  }
  std::printf("%-28s %-11s %-11s %8s %6s  %s\n", "task", "expected", "got", "time(s)", "k",
              "replay / reason");
  int correct = 0, wrong = 0, unknown = 0, replayed = 0, replay_failed = 0;
  int successful = 0, by_induction = 0;
  std::vector<double> times;
  double total = 0;
  for (const Task& task : tasks) {
    tracespec::symex::VerifyOptions options;
    options.class_path = classes + ":" + verifier_classes;
    options.class_name = task.name + ".Main";
    options.property = task.property;
    options.unwind = task.unwind;
    options.max_array = task.max_array;
    options.timeout_seconds = timeout;
    auto result = tracespec::symex::Verify(options);
    std::string got, note;
    double seconds = 0;
    int k = 0;
    if (!result.ok()) {
      got = "ERROR";
      note = std::string(result.status().message());
    } else {
      seconds = result->seconds;
      k = result->unwind;
      got = result->verdict == Verdict::kUnknown ? "UNKNOWN"
                                                  : tracespec::symex::VerdictName(result->verdict);
      if (result->verdict == Verdict::kUnknown) note = result->reason;
      if (result->verdict == Verdict::kSuccessful) {
        ++successful;
        if (result->proved_by_induction) {
          ++by_induction;
          note = "proved by induction";
        } else {
          note = "complete";
        }
      }
      if (result->verdict == Verdict::kFailed && replay) {
        note = Replay(*result, *work, classes, task.name);
        if (note == "yes") {
          ++replayed;
        } else {
          ++replay_failed;
        }
      }
    }
    times.push_back(seconds);
    total += seconds;
    if (got == task.expect) {
      ++correct;
    } else if (got == "UNKNOWN" || got == "ERROR") {
      ++unknown;
    } else {
      ++wrong;
    }
    if (note.size() > 60) note = note.substr(0, 57) + "...";
    std::printf("%-28s %-11s %-11s %8.3f %6d  %s%s\n", task.name.c_str(), task.expect.c_str(),
                got.c_str(), seconds, k, note.c_str(),
                got != task.expect && got != "UNKNOWN" && got != "ERROR" ? "  <-- WRONG" : "");
    std::fflush(stdout);
  }
  std::sort(times.begin(), times.end());
  double median = times.empty() ? 0
                  : times.size() % 2 ? times[times.size() / 2]
                                     : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
  int n = static_cast<int>(tasks.size());
  int expected_failures = static_cast<int>(
      std::count_if(tasks.begin(), tasks.end(), [](const Task& t) { return t.expect == "FAILED"; }));
  std::printf("\ntasks %d (%d expected to fail), correct %d, wrong %d, unknown %d, decided %.1f%%\n",
              n, expected_failures, correct, wrong, unknown,
              n == 0 ? 0.0 : 100.0 * (correct + wrong) / n);
  std::printf("SUCCESSFUL %d: complete unwinding %d, proved by induction %d\n", successful,
              successful - by_induction, by_induction);
  std::printf("time: median %.3f s, max %.3f s, total %.1f s\n", median,
              times.empty() ? 0.0 : times.back(), total);
  if (replay) {
    std::printf("counterexamples replayed on the JVM: %d of %d\n", replayed,
                replayed + replay_failed);
  }
  (void)tracespec::RemoveAll(*work);
  return wrong == 0 && replay_failed == 0 ? 0 : 1;
}
