// bench/contracts: runs `tracespec validate --json` on every variant of
// every task under bench/contracts/tasks (one .task file per method: a
// correct contract that must pass consistency and wrong ones that must fail
// with a counterexample; format in README.md) and prints one row per
// variant, then the totals.
//
//   bench_contracts [--tasks DIR] [--classes DIR] [--tracespec BIN]
//                   [--filter S[,S...]] [--jobs N] [--timeout S] [--no-replay]
//
// Every consistency counterexample is then replayed on the JVM
// (bench.replay.Replay, compiled with the tasks' classes): the pre-state is
// built, the method called, the outcome and post-state compared.
//
// Exit status: 0 when no verdict is wrong and no valid contract is an
// ERROR, 1 otherwise, 2 on bad flags, 3 on a malformed task file, 4 when
// the environment is missing.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/files.h"
#include "common/status.h"
#include "common/subprocess.h"
#include "rapidjson/document.h"

namespace {

constexpr const char* kKinds[] = {"too-strong", "frame", "exceptional", "boundary", "result"};
constexpr int kMinWrongVariants = 3;

struct Variant {
  bool expect_pass = false;
  std::string kind;  // "correct" or one of kKinds
  std::string why;
  std::string contract;
  int line = 0;  // of the "---" header in the task file
};

struct Task {
  std::string name;
  std::string method;
  int unwind = 4;
  int max_array = 4;
  // The contract files' extension: "spec" (a bare specification text),
  // "jml" (a .jml file: class-level JML, model methods) or "java" (the
  // class's source with its JML, lines as compiled: in-body annotations).
  std::string format = "spec";
  std::vector<Variant> variants;
};

absl::Status TaskError(const std::string& file, int line, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(file, ":", line, ": ", what));
}

// Header lines "key: value" and "# comment" up to the first "---"; then
// blocks "--- correct" (the first block; more may follow) and
// "--- wrong KIND: WHY", each followed by JML.
absl::StatusOr<Task> ParseTask(const std::string& file, const std::string& name) {
  TS_ASSIGN_OR_RETURN(std::string text, tracespec::ReadFile(file));
  Task task;
  task.name = name;
  int line_number = 0;
  Variant* current = nullptr;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    absl::string_view header = line;
    if (absl::ConsumePrefix(&header, "---")) {
      header = absl::StripAsciiWhitespace(header);
      Variant variant;
      variant.line = line_number;
      if (header == "correct") {
        variant.expect_pass = true;
        variant.kind = "correct";
      } else if (absl::ConsumePrefix(&header, "wrong ")) {
        std::pair<absl::string_view, absl::string_view> parts = absl::StrSplit(header, ": ");
        variant.kind = std::string(parts.first);
        variant.why = std::string(parts.second);
        if (std::find(std::begin(kKinds), std::end(kKinds), variant.kind) == std::end(kKinds)) {
          return TaskError(file, line_number,
                           absl::StrCat("unknown kind '", variant.kind, "' in '--- wrong' (one of ",
                                        absl::StrJoin(kKinds, ", "), ")"));
        }
        if (variant.why.empty()) {
          return TaskError(file, line_number, "'--- wrong KIND: WHY' without a reason");
        }
      } else {
        return TaskError(file, line_number, "expected '--- correct' or '--- wrong KIND: WHY'");
      }
      task.variants.push_back(variant);
      current = &task.variants.back();
      continue;
    }
    absl::string_view stripped = absl::StripAsciiWhitespace(line);
    bool comment = absl::StartsWith(stripped, "#");  // JML never starts a line with '#'
    if (current != nullptr) {
      if (!comment) absl::StrAppend(&current->contract, line, "\n");
      continue;
    }
    if (stripped.empty() || comment) continue;
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(stripped, ": ");
    if (kv.first == "method") {
      task.method = std::string(kv.second);
    } else if (kv.first == "format") {
      if (kv.second != "spec" && kv.second != "jml" && kv.second != "java") {
        return TaskError(file, line_number,
                         absl::StrCat("bad format '", kv.second, "' (spec, jml or java)"));
      }
      task.format = std::string(kv.second);
    } else if (kv.first == "unwind" || kv.first == "max-array") {
      int value = 0;
      if (!absl::SimpleAtoi(kv.second, &value) || value < 1) {
        return TaskError(file, line_number, absl::StrCat("bad ", kv.first, " '", kv.second, "'"));
      }
      (kv.first == "unwind" ? task.unwind : task.max_array) = value;
    } else {
      return TaskError(file, line_number,
                       absl::StrCat("unknown header '", stripped,
                                    "' (method:, unwind:, max-array:, format: or # comment)"));
    }
  }
  if (task.method.empty()) return TaskError(file, 1, "no 'method:' line");
  int correct = 0, wrong = 0;
  for (Variant& variant : task.variants) {
    (variant.expect_pass ? correct : wrong)++;
    if (absl::StripAsciiWhitespace(variant.contract).empty()) {
      return TaskError(file, variant.line, "empty contract");
    }
  }
  if (correct < 1 || !task.variants.front().expect_pass) {
    return TaskError(file, 1, "the first block must be '--- correct'");
  }
  if (wrong < kMinWrongVariants) {
    return TaskError(
        file, 1,
        absl::StrCat("needs at least ", kMinWrongVariants, " '--- wrong' blocks, has ", wrong));
  }
  return task;
}

struct Job {
  const Task* task;
  const Variant* variant;
  int index;  // within the task
};

struct Outcome {
  std::string status;  // consistency: PASS, FAIL, UNKNOWN, ERROR (also for a failed run)
  std::string bits;    // "11", "01", ... or "--"
  bool complete = false;
  bool proved = false;        // PASS for every number of iterations (induction)
  double frame_seconds = 0;   // the longest frame query
  int counterexamples = 0;
  // Whether a `violated` diagnostic (not only a well-definedness one)
  // comes with a counterexample.
  bool violated = false;
  double check_seconds = 0;
  double wall_seconds = 0;
  std::string note;  // summary or error text
  bool right = false;
  // The consistency counterexamples as Replay.java cases (those it can
  // build: primitives, arrays and plain objects).
  std::vector<std::string> cases;
};

// One Value of an observation as "KIND TEXT" for Replay.java (Z B S C I J
// F D with floating point as raw bits, ref ID, null -); false for values it
// cannot rebuild (strings, redacted).
bool EncodeValue(const rapidjson::Value& v, std::string* out) {
  if (!v.IsObject()) return false;
  // int64/uint64 (long_value, ref) are strings in protobuf JSON.
  auto integer = [](const rapidjson::Value& x) -> std::string {
    if (x.IsString()) return x.GetString();
    return x.IsInt64() ? absl::StrCat(x.GetInt64()) : "0";
  };
  static const std::pair<const char*, const char*> kIntegral[] = {
      {"byte_value", "B"}, {"short_value", "S"}, {"char_value", "C"},
      {"int_value", "I"},  {"long_value", "J"},  {"ref", "ref"}};
  for (const auto& [key, kind] : kIntegral) {
    if (v.HasMember(key)) {
      *out = absl::StrCat(kind, " ", integer(v[key]));
      return true;
    }
  }
  if (v.HasMember("bool_value")) {
    *out = absl::StrCat("Z ", v["bool_value"].GetBool() ? 1 : 0);
    return true;
  }
  if (v.HasMember("null_value")) {
    *out = "null -";
    return true;
  }
  bool is_float = v.HasMember("float_value");
  if (!is_float && !v.HasMember("double_value")) return false;  // strings, redacted
  // Non-finite values are the strings "NaN", "Infinity", "-Infinity".
  const rapidjson::Value& x = v[is_float ? "float_value" : "double_value"];
  double d = 0;
  if (x.IsNumber()) {
    d = x.GetDouble();
  } else if (!x.IsString()) {
    return false;
  } else if (std::string(x.GetString()) == "NaN") {
    d = std::numeric_limits<double>::quiet_NaN();
  } else if (!absl::SimpleAtod(x.GetString(), &d)) {  // accepts [-]Infinity
    return false;
  }
  if (is_float) {
    float f = std::isnan(d) ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(d);
    int32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    *out = absl::StrCat("F ", bits);
  } else {
    if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
    int64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    *out = absl::StrCat("D ", bits);
  }
  return true;
}

// The objects of a pre- or post-state as directives: "obj", then "elem" /
// "field" lines prefixed with `prefix` ("" or "post-").
// Declaring, the ids go into `ids`; otherwise objects not in `ids` (made by
// the call) are left out.
bool EncodeState(const rapidjson::Value& objects, const std::string& prefix, bool declare,
                 std::set<std::string>* ids, std::string* out) {
  if (!objects.IsArray()) return true;
  for (const rapidjson::Value& o : objects.GetArray()) {
    if (!o.HasMember("id") || !o.HasMember("class_name")) return false;
    std::string id = o["id"].IsString() ? o["id"].GetString() : "0";
    if (declare) {
      ids->insert(id);
    } else if (ids->count(id) == 0) {
      continue;
    }
    if (o.HasMember("truncated") && o["truncated"].GetBool()) return false;
    std::string value;
    if (o.HasMember("array")) {
      const rapidjson::Value& array = o["array"];
      int length = array.HasMember("length") ? array["length"].GetInt() : 0;
      if (declare)
        absl::StrAppend(out, "obj ", id, " ", o["class_name"].GetString(), " ", length, "\n");
      if (!array.HasMember("elements")) continue;
      int i = 0;
      for (const rapidjson::Value& e : array["elements"].GetArray()) {
        if (!EncodeValue(e, &value)) return false;
        absl::StrAppend(out, prefix, "elem ", id, " ", i++, " ", value, "\n");
      }
    } else {
      if (declare) absl::StrAppend(out, "obj ", id, " ", o["class_name"].GetString(), "\n");
      if (!o.HasMember("fields")) continue;
      for (const rapidjson::Value& f : o["fields"].GetArray()) {
        if (!f.HasMember("value") || !EncodeValue(f["value"], &value)) return false;
        absl::StrAppend(out, prefix, "field ", id, " ", f["name"].GetString(), " ", value, "\n");
      }
    }
  }
  return true;
}

// A counterexample as a Replay.java case; false when it cannot be rebuilt.
bool EncodeCase(const rapidjson::Value& ce, std::string* out) {
  if (!ce.IsObject() || !ce.HasMember("method") || !ce.HasMember("outcome")) return false;
  const rapidjson::Value& method = ce["method"];
  std::string descriptor = method["jvm_descriptor"].GetString();
  absl::StrAppend(out, "method ", method["class_name"].GetString(), " ", method["name"].GetString(),
                  " ", descriptor, "\n");
  std::set<std::string> ids;
  if (ce.HasMember("pre") && !EncodeState(ce["pre"], "", true, &ids, out)) return false;
  std::string value;
  if (ce.HasMember("receiver")) {
    if (!EncodeValue(ce["receiver"], &value)) return false;
    absl::StrAppend(out, "this ", value.substr(value.find(' ') + 1), "\n");
  }
  if (ce.HasMember("args")) {
    for (const rapidjson::Value& a : ce["args"].GetArray()) {
      if (!EncodeValue(a, &value)) return false;
      absl::StrAppend(out, "arg ", value, "\n");
    }
  }
  const rapidjson::Value& outcome = ce["outcome"];
  std::string type = descriptor.substr(descriptor.find(')') + 1);
  if (outcome.HasMember("thrown")) {
    absl::StrAppend(out, "throw ", outcome["thrown"]["class_name"].GetString(), "\n");
  } else if (type == "V") {
    absl::StrAppend(out, "return V -\n");
  } else if (type[0] == 'L' || type[0] == '[') {
    absl::StrAppend(out, "return R -\n");
  } else if (outcome.HasMember("returned") && EncodeValue(outcome["returned"], &value)) {
    absl::StrAppend(out, "return ", type, value.substr(value.find(' ')), "\n");
  } else {
    return false;
  }
  // Post-state of the objects that existed before (new ones are not compared).
  std::string post;
  if (ce.HasMember("post") && !EncodeState(ce["post"], "post-", false, &ids, &post)) return false;
  absl::StrAppend(out, post);
  return true;
}

std::string FirstLine(absl::string_view text) {
  std::string line(absl::StripAsciiWhitespace(text.substr(0, text.find('\n'))));
  return line;
}

Outcome Evaluate(const Variant& variant, const tracespec::SubprocessResult& run) {
  Outcome out;
  out.status = "ERROR";
  out.bits = "--";
  out.wall_seconds = run.seconds;
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(run.stdout_data.c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("consistency") ||
      !doc["consistency"].IsObject()) {
    out.note = absl::StrCat(run.Describe(), ": ",
                            FirstLine(run.stderr_data.empty() ? run.stdout_data : run.stderr_data));
    return out;
  }
  const rapidjson::Value& consistency = doc["consistency"];
  if (doc.HasMember("result") && doc["result"].IsString()) out.bits = doc["result"].GetString();
  if (consistency.HasMember("status") && consistency["status"].IsString()) {
    out.status = consistency["status"].GetString();
  }
  if (consistency.HasMember("complete") && consistency["complete"].IsBool()) {
    out.complete = consistency["complete"].GetBool();
  }
  if (consistency.HasMember("proved") && consistency["proved"].IsBool()) {
    out.proved = consistency["proved"].GetBool();
  }
  if (consistency.HasMember("frame_seconds") && consistency["frame_seconds"].IsNumber()) {
    out.frame_seconds = consistency["frame_seconds"].GetDouble();
  }
  if (consistency.HasMember("counterexamples") && consistency["counterexamples"].IsArray()) {
    out.counterexamples = static_cast<int>(consistency["counterexamples"].Size());
  }
  if (consistency.HasMember("seconds") && consistency["seconds"].IsNumber()) {
    out.check_seconds = consistency["seconds"].GetDouble();
  }
  if (consistency.HasMember("summary") && consistency["summary"].IsString()) {
    out.note = FirstLine(consistency["summary"].GetString());
  }
  if (consistency.HasMember("diagnostics") && consistency["diagnostics"].IsArray()) {
    const rapidjson::Value& diagnostics = consistency["diagnostics"];
    for (const rapidjson::Value& d : diagnostics.GetArray()) {
      if (d.HasMember("kind") && d["kind"].IsString() &&
          std::string(d["kind"].GetString()) == "violated" && d.HasMember("counterexamples") &&
          d["counterexamples"].IsArray() && !d["counterexamples"].Empty()) {
        out.violated = true;
      }
    }
    // The first diagnostic says more than the summary about ERROR / UNKNOWN.
    if (out.status != "PASS" && out.status != "FAIL" && !diagnostics.Empty()) {
      const rapidjson::Value& first = diagnostics[0];
      if (first.HasMember("message") && first["message"].IsString()) {
        out.note = absl::StrCat(out.note, " | ", FirstLine(first["message"].GetString()));
      }
    }
  }
  out.right = variant.expect_pass ? out.status == "PASS" : out.status == "FAIL" && out.violated;
  if (consistency.HasMember("counterexamples") && consistency["counterexamples"].IsArray()) {
    for (const rapidjson::Value& ce : consistency["counterexamples"].GetArray()) {
      std::string text;
      if (EncodeCase(ce, &text)) out.cases.push_back(text);
    }
  }
  return out;
}

// A wrong verdict: the check decided, and decided the other way, or a wrong
// contract FAILed without a violated clause and its counterexample (only
// because of well-definedness, say).
bool IsWrong(const Outcome& out) {
  if (out.right) return false;
  return out.status == "PASS" || out.status == "FAIL";
}

std::string Truncate(std::string text, size_t width) {
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  return text;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string tasks_dir = TRACESPEC_BENCH_TASKS;
  std::string classes = TRACESPEC_BENCH_CLASSES;
  std::string tracespec = TRACESPEC_BENCH_BINARY;
  std::vector<std::string> filters;
  int jobs = 1;
  double timeout = 60;
  bool replay = true;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool has_value = i + 1 < argc;
    if (arg == "--tasks" && has_value) {
      tasks_dir = argv[++i];
    } else if (arg == "--classes" && has_value) {
      classes = argv[++i];
    } else if (arg == "--tracespec" && has_value) {
      tracespec = argv[++i];
    } else if (arg == "--filter" && has_value) {
      for (absl::string_view f : absl::StrSplit(argv[++i], ',', absl::SkipEmpty())) {
        filters.emplace_back(f);
      }
    } else if (arg == "--jobs" && has_value && absl::SimpleAtoi(argv[i + 1], &jobs) && jobs > 0) {
      ++i;
    } else if (arg == "--timeout" && has_value && absl::SimpleAtod(argv[i + 1], &timeout)) {
      ++i;
    } else if (arg == "--no-replay") {
      replay = false;
    } else {
      std::fprintf(
          stderr,
          "usage: bench_contracts [--tasks DIR] [--classes DIR] [--tracespec BIN]\n"
          "                       [--filter S[,S...]] [--jobs N] [--timeout S] [--no-replay]\n");
      return 2;
    }
  }
  if (!tracespec::IsDirectory(tasks_dir) || !tracespec::IsDirectory(classes) ||
      !tracespec::FileExists(tracespec)) {
    std::fprintf(stderr, "bench_contracts: missing tasks %s, classes %s or binary %s\n",
                 tasks_dir.c_str(), classes.c_str(), tracespec.c_str());
    return 4;
  }
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(tasks_dir)) {
    if (entry.path().extension() == ".task") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  std::vector<Task> tasks;
  for (const std::string& name : names) {
    bool selected = filters.empty();
    for (const std::string& f : filters) selected = selected || absl::StrContains(name, f);
    if (!selected) continue;
    auto task = ParseTask(tasks_dir + "/" + name + ".task", name);
    if (!task.ok()) {
      std::fprintf(stderr, "bench_contracts: %s\n", std::string(task.status().message()).c_str());
      return 3;
    }
    tasks.push_back(*std::move(task));
  }
  auto work = tracespec::MakeTempDir("bench-contracts-");
  if (!work.ok()) {
    std::fprintf(stderr, "bench_contracts: %s\n", std::string(work.status().message()).c_str());
    return 4;
  }
  std::vector<Job> all;
  for (const Task& task : tasks) {
    for (size_t v = 0; v < task.variants.size(); ++v) {
      all.push_back({&task, &task.variants[v], static_cast<int>(v)});
    }
  }

  std::vector<Outcome> outcomes(all.size());
  std::vector<bool> done(all.size(), false);
  size_t next_to_print = 0;
  std::mutex mu;
  auto print_row = [&](size_t i) {
    const Job& job = all[i];
    const Outcome& out = outcomes[i];
    std::string variant =
        job.index == 0 ? "correct" : absl::StrCat(job.index, ":", job.variant->kind);
    std::string got =
        absl::StrCat(out.bits, " ", out.status, out.status == "PASS" && !out.complete ? "~" : "");
    std::string mark = IsWrong(out) ? "  <-- WRONG" : "";
    std::string note = out.right ? "" : Truncate(out.note, 70);
    std::printf("%-26s %-15s %-6s %-12s %-4s %8.3f %8.3f  %s%s\n", job.task->name.c_str(),
                variant.c_str(), job.variant->expect_pass ? "PASS" : "FAIL", got.c_str(),
                out.violated              ? "yes"
                : out.counterexamples > 0 ? "wd"
                                          : "no",
                out.check_seconds, out.wall_seconds, note.c_str(), mark.c_str());
    std::fflush(stdout);
  };
  std::printf("%-26s %-15s %-6s %-12s %-4s %8s %8s  %s\n", "task", "variant", "expect", "got",
              "cex", "check(s)", "wall(s)", "note (when not as expected)");

  std::atomic<size_t> next{0};
  auto worker = [&]() {
    for (size_t i = next++; i < all.size(); i = next++) {
      const Job& job = all[i];
      std::string file =
          absl::StrCat(*work, "/", job.task->name, ".", job.index, ".", job.task->format);
      Outcome out;
      absl::Status written = tracespec::WriteFileAtomic(file, job.variant->contract);
      if (!written.ok()) {
        out.status = "ERROR";
        out.bits = "--";
        out.note = std::string(written.message());
      } else {
        tracespec::SubprocessOptions options;
        options.timeout_seconds = timeout + 60;
        auto run = tracespec::RunSubprocess(
            {tracespec, "validate", "--classpath", classes, "--method", job.task->method,
             "--contract", file, "--unwind", absl::StrCat(job.task->unwind), "--max-array",
             absl::StrCat(job.task->max_array), "--timeout", absl::StrCat(timeout), "--json"},
            options);
        if (!run.ok()) {
          out.status = "ERROR";
          out.bits = "--";
          out.note = std::string(run.status().message());
        } else {
          out = Evaluate(*job.variant, *run);
        }
      }
      out.note = absl::StrReplaceAll(out.note, {{*work + "/", ""}});
      std::lock_guard<std::mutex> lock(mu);
      outcomes[i] = out;
      done[i] = true;
      while (next_to_print < all.size() && done[next_to_print]) print_row(next_to_print++);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < jobs; ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();

  int replayed = 0, mismatches = 0, not_rebuilt = 0;
  std::vector<std::string> mismatch_lines;
  if (replay) {
    std::string dir = *work + "/replay";
    std::vector<std::string> command = {"java", "-cp", classes, "bench.replay.Replay"};
    std::map<std::string, std::pair<size_t, size_t>> owner;  // file -> (job, counterexample)
    for (size_t i = 0; i < all.size(); ++i) {
      not_rebuilt += outcomes[i].counterexamples - static_cast<int>(outcomes[i].cases.size());
      for (size_t k = 0; k < outcomes[i].cases.size(); ++k) {
        std::string file = absl::StrCat(dir, "/", i, ".", k, ".case");
        if (!tracespec::MakeDirs(dir).ok() ||
            !tracespec::WriteFileAtomic(file, outcomes[i].cases[k]).ok()) {
          std::fprintf(stderr, "bench_contracts: cannot write %s\n", file.c_str());
          return 4;
        }
        command.push_back(file);
        owner[file] = {i, k};
      }
    }
    if (!owner.empty()) {
      auto run = tracespec::RunSubprocess(command);
      if (!run.ok() || !run->Succeeded()) {
        std::fprintf(stderr, "bench_contracts: replay failed: %s\n",
                     run.ok() ? run->stderr_data.c_str() : "cannot start java");
        return 4;
      }
      for (absl::string_view line : absl::StrSplit(run->stdout_data, '\n', absl::SkipEmpty())) {
        std::pair<absl::string_view, absl::string_view> parts =
            absl::StrSplit(line, absl::MaxSplits(' ', 1));
        auto it = owner.find(std::string(parts.first));
        if (it == owner.end()) continue;
        if (parts.second == "ok") {
          ++replayed;
        } else {
          ++mismatches;
          const Job& job = all[it->second.first];
          mismatch_lines.push_back(absl::StrCat("  ", job.task->name, " variant ", job.index,
                                                " counterexample ", it->second.second + 1, ": ",
                                                parts.second));
        }
      }
    }
  }

  int wrong = 0, errors = 0, unknown = 0, right = 0, bounded = 0, correct_variants = 0;
  int complete = 0, proved = 0, frames = 0, slow_frames = 0;
  std::vector<double> times;
  double total = 0;
  size_t slowest = 0, slowest_frame = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    const Outcome& out = outcomes[i];
    if (all[i].variant->expect_pass) ++correct_variants;
    if (out.right) ++right;
    if (IsWrong(out)) ++wrong;
    if (out.status == "ERROR") ++errors;
    if (out.status == "UNKNOWN") ++unknown;
    if (out.status == "PASS" && out.complete) ++complete;
    if (out.status == "PASS" && !out.complete && out.proved) ++proved;
    if (out.status == "PASS" && !out.complete && !out.proved) ++bounded;
    if (out.frame_seconds > 0) ++frames;
    if (out.frame_seconds > 1) ++slow_frames;
    if (out.frame_seconds > outcomes[slowest_frame].frame_seconds) slowest_frame = i;
    times.push_back(out.check_seconds);
    total += out.check_seconds;
    if (out.check_seconds > outcomes[slowest].check_seconds) slowest = i;
  }
  std::printf("\ntasks %zu, variants %zu (%d correct, %zu wrong)\n", tasks.size(), all.size(),
              correct_variants, all.size() - correct_variants);
  std::printf("as expected %d, wrong verdicts %d, ERROR %d, UNKNOWN %d\n", right, wrong, errors,
              unknown);
  std::printf("PASS: complete %d, proved by induction %d, within bounds %d\n", complete, proved,
              bounded);
  if (frames > 0) {
    std::printf("frame queries: %d variants, longest %.3f s (%s variant %d), over 1 s: %d\n",
                frames, outcomes[slowest_frame].frame_seconds,
                all[slowest_frame].task->name.c_str(), all[slowest_frame].index, slow_frames);
  }
  if (!all.empty()) {
    std::printf("check time: median %.3f s, max %.3f s (%s variant %d), total %.1f s\n",
                Median(times), outcomes[slowest].check_seconds, all[slowest].task->name.c_str(),
                all[slowest].index, total);
  }
  if (replay) {
    std::printf("counterexamples replayed on the JVM: %d as reported, %d differ, %d not rebuilt\n",
                replayed, mismatches, not_rebuilt);
    for (const std::string& line : mismatch_lines) std::printf("%s\n", line.c_str());
  }
  (void)tracespec::RemoveAll(*work);
  return wrong == 0 && errors == 0 && mismatches == 0 ? 0 : 1;
}
