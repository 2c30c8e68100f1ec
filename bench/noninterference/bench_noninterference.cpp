// bench_noninterference: what `tracespec observe --noninterference` costs.
// On each case (the examples' JUnit suites), each repetition runs, one
// after the other: the suite with the plain JUnit console launcher (no
// probe), `tracespec observe --no-noninterference` and `tracespec observe
// --noninterference` (both spelled out, so that any default measures the
// same), then `--noninterference` once more into the same directory (as a
// re-run of `tracespec run` or `observe` does: the constants the last
// observe found equal to a denied value let the substituted runs start
// beside the tests instead of after them).
// Prints the medians as a table, the ratios of the noninterference run to
// plain observe and to plain JUnit, and whether the noninterference runs
// wrote the same observations every time. The goal: observe
// --noninterference end to end at most 2.5x a plain JUnit run.
//
//   bench_noninterference [--reps N] [--case NAME] [--tracespec PATH]
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/subprocess.h"
#include "tracespec/v1/summary.pb.h"

namespace {

using tracespec::RunSubprocess;

struct Case {
  const char* name;
  const char* example;     // under examples/
  const char* test_class;  // the suite
  const char* method;      // --method
  bool tests_src;          // with --tests-src (its excluded test: an isolation run)
};

// bank: the signatures depend on the denied auditKey (A and B differ: 3
// runs). bank+src: the same with the test that names the secret excluded
// (an isolation run). loan: no denied field (A and B equal: 2 runs).
constexpr Case kCases[] = {
    {"bank", "bank", "bank.AccountTest", "bank.*#*", false},
    {"bank+src", "bank", "bank.AccountTest", "bank.*#*", true},
    {"loan", "loan", "loan.LoanApplicationTest", "loan.LoanApplication#*", false},
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "bench_noninterference: %s\n", message.c_str());
  return 1;
}

struct Row {
  std::string name;
  std::vector<double> junit, observe, ni, again;
  int runs = 0;
  int64_t withheld = 0;
  bool isolation = false;
  bool same_output = true;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace tracespec;
  int reps = 5;
  std::string only;
  std::string tracespec_binary = TRACESPEC_BENCH_BINARY;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--case") only = argv[i + 1];
    if (flag == "--tracespec") tracespec_binary = argv[i + 1];
  }
  const std::string examples = TRACESPEC_BENCH_EXAMPLES;
  const std::string sources = TRACESPEC_BENCH_SOURCES;
  const std::string junit = TRACESPEC_JUNIT_JAR_PATH;
  auto work = MakeTempDir("tracespec-bench-ni-");
  if (!work.ok()) return Fail(std::string(work.status().message()));

  std::vector<Row> rows;
  for (const Case& c : kCases) {
    if (!only.empty() && only != c.name) continue;
    Row row;
    row.name = c.name;
    const std::string dir = absl::StrCat(examples, "/", c.example);
    const std::string classpath = absl::StrCat(dir, "/classes:", dir, "/test-classes");
    std::string first_pb;
    for (int rep = 0; rep < reps; ++rep) {
      auto base = RunSubprocess({"java", "-cp", classpath + ":" + junit,
                                 "org.junit.platform.console.ConsoleLauncher", "--disable-banner",
                                 "--disable-ansi-colors", "--fail-if-no-tests",
                                 absl::StrCat("--select-class=", c.test_class)});
      if (!base.ok() || !base->Succeeded()) {
        return Fail(absl::StrCat(c.name, ": the plain JUnit run failed"));
      }
      row.junit.push_back(base->seconds);
      for (bool ni : {false, true}) {
        std::string out = absl::StrCat(*work, "/", c.name, rep, ni ? "-ni" : "");
        std::vector<std::string> args = {tracespec_binary, "--quiet", "observe", "--classpath",
                                         classpath, "--tests", c.test_class, "--method",
                                         c.method, "--out", out};
        if (c.tests_src) {
          args.insert(args.end(), {"--tests-src", absl::StrCat(sources, "/", c.example, "/test")});
        }
        args.push_back(ni ? "--noninterference" : "--no-noninterference");
        auto observed = RunSubprocess(args);
        if (!observed.ok() || !observed->Succeeded()) {
          return Fail(absl::StrCat(c.name, ": tracespec observe ", args.back(),
                                   " failed: ",
                                   observed.ok() ? observed->stderr_data
                                                 : std::string(observed.status().message())));
        }
        (ni ? row.ni : row.observe).push_back(observed->seconds);
        if (ni) {
          std::string before = ReadFile(out + "/observations.pb").value_or("");
          auto again = RunSubprocess(args);
          if (!again.ok() || !again->Succeeded()) {
            return Fail(absl::StrCat(c.name, ": tracespec observe ", args.back(),
                                     " failed the second time in ", out));
          }
          row.again.push_back(again->seconds);
          v1::ObserveSummary summary;
          auto json = ReadFile(out + "/summary.json");
          if (!json.ok() || !FromJson(*json, &summary).ok()) {
            return Fail(absl::StrCat(c.name, ": cannot read summary.json"));
          }
          row.runs = summary.noninterference_runs();
          row.withheld = summary.withheld_dependent() + summary.withheld_nondeterministic();
          row.isolation = summary.isolation_run();
          std::string pb = ReadFile(out + "/observations.pb").value_or("");
          if (rep == 0) first_pb = before;
          row.same_output &= before == first_pb && pb == first_pb;
        }
        (void)RemoveAll(out);
      }
    }
    rows.push_back(std::move(row));
  }
  (void)RemoveAll(*work);
  if (rows.empty()) return Fail("no case named " + only);

  std::printf("bench/noninterference: wall time in seconds, medians of %d repetitions\n\n", reps);
  std::printf("| %-9s | %4s | %9s | %10s | %7s | %9s | %11s | %10s | %9s | %10s |\n", "case",
              "runs", "isolation", "JUnit (s)", "observe", "--nonint.", "vs. observe",
              "vs. JUnit", "again (s)", "again/JUnit");
  std::printf("|-----------|-----:|-----------|-----------:|--------:|----------:|------------:|"
              "-----------:|----------:|-----------:|\n");
  bool met = true;
  bool same = true;
  for (const Row& row : rows) {
    double junit = Median(row.junit), observe = Median(row.observe), ni = Median(row.ni);
    double again = Median(row.again);
    met &= ni / junit <= 2.5;
    same &= row.same_output;
    std::printf("| %-9s | %4d | %-9s | %10.3f | %7.3f | %9.3f | %10.2fx | %9.2fx | %9.3f | "
                "%9.2fx |\n",
                row.name.c_str(), row.runs, row.isolation ? "yes" : "no", junit, observe, ni,
                ni / observe, ni / junit, again, again / junit);
  }
  std::printf("\nruns: JVMs of the noninterference run's comparison (2: A and B equal; 3: they "
              "differ, C ran); isolation: an isolation run came first\n");
  std::printf("again: --noninterference once more into the same directory (the constants the "
              "last observe found let the substituted runs start beside the tests)\n");
  std::printf("the same observations.pb from every --noninterference run, the second ones "
              "included: %s\n",
              same ? "yes" : "NO");
  std::printf("goal: observe --noninterference <= 2.5x plain JUnit on every case: %s\n",
              met ? "met" : "NOT met");
  return 0;
}
