// bench_observer: wall time of a JUnit suite that calls one target method
// 100,000 times (bench/observer/java), run in the same invocation without
// the probe (plain JUnit console launcher) and with it (`tracespec
// observe`, with the default cap on observations kept per method and with
// every observation kept), each several times; then the same calls driven
// by a main (bench.AccumulatorMain), plain and as `tracespec observe --
// java ...`. Prints the medians as a table. The goal: end-to-end `observe`
// at most 2x the plain run.
//
//   bench_observer [--runs N] [--tracespec PATH]
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

constexpr char kTestClass[] = "bench.AccumulatorBench";
constexpr char kTarget[] = "bench.Accumulator#add";
constexpr char kMainClass[] = "bench.AccumulatorMain";

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "bench_observer: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tracespec;
  int runs = 5;
  std::string tracespec_binary = TRACESPEC_BENCH_BINARY;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--tracespec") tracespec_binary = argv[i + 1];
  }
  const std::string classes = TRACESPEC_BENCH_CLASSES;
  const std::string junit = TRACESPEC_JUNIT_JAR_PATH;
  auto work = MakeTempDir("tracespec-bench-");
  if (!work.ok()) return Fail(std::string(work.status().message()));

  std::vector<double> plain, probe_jvm, observe_total, observe_all, rate;
  std::vector<double> main_plain, main_probe_jvm, main_observe;
  int64_t observations = 0, kept = 0, kept_all = 0;
  for (int run = 0; run < runs; ++run) {
    // Without the probe: the same launcher, class path and selection.
    auto base = RunSubprocess({"java", "-cp", classes + ":" + junit,
                               "org.junit.platform.console.ConsoleLauncher", "--disable-banner",
                               "--disable-ansi-colors", "--fail-if-no-tests",
                               std::string("--select-class=") + kTestClass});
    if (!base.ok() || !base->Succeeded()) return Fail("the plain JUnit run failed");
    plain.push_back(base->seconds);

    for (const char* cap : {"", "-1"}) {
      std::string out = absl::StrCat(*work, "/run", run);
      std::vector<std::string> args = {tracespec_binary, "--quiet", "observe", "--classpath",
                                       classes, "--tests", kTestClass, "--method", kTarget,
                                       "--out", out};
      if (*cap != '\0') args.insert(args.end(), {"--max-observations", cap});
      auto observed = RunSubprocess(args);
      if (!observed.ok() || !observed->Succeeded()) {
        return Fail("tracespec observe failed: " + (observed.ok() ? observed->stderr_data
                                                                  : std::string(observed.status().message())));
      }
      v1::ObserveSummary summary;
      auto json = ReadFile(out + "/summary.json");
      if (!json.ok() || !FromJson(*json, &summary).ok()) return Fail("cannot read summary.json");
      observations = summary.observations();
      int64_t written = summary.observations() - summary.observations_dropped();
      if (*cap == '\0') {
        kept = written;
        probe_jvm.push_back(summary.jvm_seconds());
        observe_total.push_back(observed->seconds);
        rate.push_back(summary.observations() / summary.jvm_seconds());
      } else {
        kept_all = written;
        observe_all.push_back(observed->seconds);
      }
      (void)RemoveAll(out);
    }

    // The same calls from a main, without JUnit: plain, then under observe.
    auto main_base = RunSubprocess({"java", "-cp", classes, kMainClass});
    if (!main_base.ok() || !main_base->Succeeded()) return Fail("the plain main run failed");
    main_plain.push_back(main_base->seconds);
    std::string out = absl::StrCat(*work, "/main", run);
    auto observed = RunSubprocess({tracespec_binary, "--quiet", "observe", "--method", kTarget,
                                   "--out", out, "--", "java", "-cp", classes, kMainClass});
    if (!observed.ok() || !observed->Succeeded()) {
      return Fail("tracespec observe -- java failed: " +
                  (observed.ok() ? observed->stderr_data
                                 : std::string(observed.status().message())));
    }
    v1::ObserveSummary summary;
    auto json = ReadFile(out + "/summary.json");
    if (!json.ok() || !FromJson(*json, &summary).ok()) return Fail("cannot read summary.json");
    if (summary.observations() != observations) {
      return Fail(absl::StrCat("the main run recorded ", summary.observations(),
                               " observations, the JUnit run ", observations));
    }
    main_probe_jvm.push_back(summary.jvm_seconds());
    main_observe.push_back(observed->seconds);
    (void)RemoveAll(out);
  }
  (void)RemoveAll(*work);

  double base = Median(plain);
  double with_probe = Median(probe_jvm);
  std::printf("bench/observer: %s calls %s %d times; medians of %d runs\n\n", kTestClass,
              kTarget, 100000, runs);
  auto row = [&](const char* label, double seconds) {
    std::printf("| %-52s | %8.3f | %8.2fx |\n", label, seconds, seconds / base);
  };
  std::printf("| %-52s | %8s | %9s |\n", "run", "wall (s)", "vs. plain");
  std::printf("|%s|---------:|----------:|\n", std::string(54, '-').c_str());
  row("JUnit, no probe", base);
  row("JUnit under the probe (JVM only)", with_probe);
  std::string capped = absl::StrCat("tracespec observe (default cap: ", kept, " kept)");
  std::string all = absl::StrCat("tracespec observe --max-observations -1 (", kept_all, ")");
  row(capped.c_str(), Median(observe_total));
  row(all.c_str(), Median(observe_all));
  double main_base = Median(main_plain);
  auto main_row = [&](const char* label, double seconds) {
    std::printf("| %-52s | %8.3f | %8.2fx |\n", label, seconds, seconds / main_base);
  };
  std::printf("\nthe same calls driven by %s (no JUnit); ratios against the plain main:\n\n",
              kMainClass);
  std::printf("| %-52s | %8s | %9s |\n", "run", "wall (s)", "vs. main");
  std::printf("|%s|---------:|----------:|\n", std::string(54, '-').c_str());
  main_row("main, no probe", main_base);
  main_row("main under the probe (JVM only)", Median(main_probe_jvm));
  std::string main_capped = absl::StrCat("tracespec observe -- java (default cap: ", kept, " kept)");
  main_row(main_capped.c_str(), Median(main_observe));
  std::printf("\nprobe overhead on the main (JVM under the probe / plain): %.2fx, %.2f us per "
              "observation\n",
              Median(main_probe_jvm) / main_base,
              (Median(main_probe_jvm) - main_base) /
                  static_cast<double>(std::max<int64_t>(observations, 1)) * 1e6);
  std::printf("\nobservations recorded per run: %lld\n", static_cast<long long>(observations));
  std::printf("observations/s (over the probe JVM's wall time): %.0f\n", Median(rate));
  std::printf("probe cost per observation (JVM time difference): %.2f us\n",
              (with_probe - base) / static_cast<double>(std::max<int64_t>(observations, 1)) * 1e6);
  std::printf("goal: end-to-end observe (default cap) <= 2x plain JUnit: %.2fx, %s\n",
              Median(observe_total) / base, Median(observe_total) / base <= 2.0 ? "met" : "NOT met");
  return 0;
}
