// Benchmark of the built-in synthesizer (agent/synth): per task shape (the
// SpecGenBench-style observations of tests/agent/synth/tasks.h) the size of
// the search and the time it takes; then how the time grows with the number
// of observations and of receiver fields; then Houdini rounds with an
// oracle. Prints tables; median of --reps runs (default 5).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "agent/synth/synthesizer.h"
#include "tests/agent/synth/behaviour_oracle.h"
#include "tests/agent/synth/tasks.h"

namespace tracespec {
namespace {

using Clock = std::chrono::steady_clock;

struct Timed {
  synth::SynthesisResult result;
  double median_ms = 0;
};

Timed Measure(const std::vector<v1::Observation>& obs, int reps,
              synth::ConsistencyOracle* oracle = nullptr) {
  std::vector<double> ms;
  Timed t;
  for (int r = 0; r < reps; ++r) {
    synth::SynthesisInput in;
    in.observations = obs;
    auto start = Clock::now();
    auto result = synth::Synthesize(in, {}, oracle);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!result.ok()) {
      std::fprintf(stderr, "synthesis failed: %s\n", std::string(result.status().message()).c_str());
      std::exit(1);
    }
    t.result = *result;
  }
  std::sort(ms.begin(), ms.end());
  t.median_ms = ms[ms.size() / 2];
  return t;
}

// deposit-like calls on an object with `fields` int fields, one of which
// (the first) accumulates the amount.
std::vector<v1::Observation> Accumulate(int calls, int fields) {
  std::vector<v1::Observation> out;
  for (int k = 0; k < calls; ++k) {
    int amount = 1 + (k * 7919) % 500;
    int before = (k * 104729) % 100000;
    testing::Call c("b.Ledger", "add", "(I)V", {"amount"}, false);
    c.Arg(testing::I(amount));
    testing::Call::Fields pre, post;
    for (int f = 0; f < fields; ++f) {
      std::string name = "f" + std::to_string(f);
      int v = f == 0 ? before : (k * (f + 3)) % 97;
      pre.push_back({name, {"I", testing::I(v)}});
      post.push_back({name, {"I", testing::I(f == 0 ? before + amount : v)}});
    }
    c.Receiver(pre, post);
    out.push_back(c.ReturnsVoid());
  }
  return out;
}

std::vector<v1::Observation> Sums(int calls, int length) {
  std::vector<v1::Observation> out;
  for (int k = 0; k < calls; ++k) {
    std::vector<int> a;
    for (int i = 0; i < length; ++i) a.push_back((k * 31 + i * 17) % 201 - 100);
    out.push_back(testing::SumCall(a));
  }
  return out;
}

}  // namespace
}  // namespace tracespec

int main(int argc, char** argv) {
  namespace synth = tracespec::synth;
  namespace testing = tracespec::testing;
  namespace v1 = tracespec::v1;
  using tracespec::Accumulate;
  using tracespec::Measure;
  using tracespec::Sums;
  using tracespec::Timed;
  int reps = 5;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::max(1, std::atoi(argv[i + 1]));
  }
  std::printf("Task shapes (median of %d runs)\n\n", reps);
  std::printf("| task         | obs | terms | atoms | tested | clauses |    work | ms     |\n");
  std::printf("|--------------|----:|------:|------:|-------:|--------:|--------:|-------:|\n");
  double total = 0;
  for (const testing::SynthTask& task : testing::SynthTasks()) {
    Timed t = Measure(task.observations, reps);
    const synth::SynthesisStats& s = t.result.stats;
    total += t.median_ms;
    std::printf("| %-12s | %3d | %5d | %5d | %6d | %7d | %7lld | %6.2f |\n", task.name.c_str(),
                s.observations, s.terms, s.atoms, s.candidates_tested, s.clauses,
                static_cast<long long>(s.work), t.median_ms);
  }
  std::printf("\nAll %zu tasks: %.1f ms\n\n", testing::SynthTasks().size(), total);

  std::printf("Growth: an accumulating field among F int fields, N calls\n\n");
  std::printf("| N calls | F fields | terms | atoms | tested |     work | ms      |\n");
  std::printf("|--------:|---------:|------:|------:|-------:|---------:|--------:|\n");
  for (int calls : {10, 100, 1000}) {
    for (int fields : {2, 8, 24}) {
      Timed t = Measure(Accumulate(calls, fields), std::max(1, reps / (calls / 10 > 10 ? 5 : 1)));
      const synth::SynthesisStats& s = t.result.stats;
      std::printf("| %7d | %8d | %5d | %5d | %6d | %8lld | %7.1f |\n", calls, fields, s.terms,
                  s.atoms, s.candidates_tested, static_cast<long long>(s.work), t.median_ms);
    }
  }
  std::printf("\nGrowth: sum of an int[] of length L, N calls\n\n");
  std::printf("| N calls | L   | tested |     work | ms      |\n");
  std::printf("|--------:|----:|-------:|---------:|--------:|\n");
  for (int calls : {10, 100}) {
    for (int length : {4, 64, 512}) {
      Timed t = Measure(Sums(calls, length), std::max(1, reps / 2));
      const synth::SynthesisStats& s = t.result.stats;
      std::printf("| %7d | %3d | %6d | %8lld | %7.1f |%s\n", calls, length, s.candidates_tested,
                  static_cast<long long>(s.work), t.median_ms,
                  s.budget_exhausted ? " budget exhausted" : "");
    }
  }
  std::printf("\nHoudini: max(a, b) recorded only for a >= b, oracle over a 9x9 grid\n\n");
  std::vector<v1::Observation> recorded = {testing::MaxCall(5, 3), testing::MaxCall(4, 4),
                                           testing::MaxCall(9, -1)};
  std::vector<v1::Observation> behaviours = recorded;
  for (int a = -4; a <= 4; ++a) {
    for (int b = -4; b <= 4; ++b) behaviours.push_back(testing::MaxCall(a, b));
  }
  testing::BehaviourOracle oracle(behaviours, false);
  Timed h = Measure(recorded, 1, &oracle);
  std::printf("| oracle rounds | counterexamples | verdict | ms    |\n");
  std::printf("|--------------:|----------------:|---------|------:|\n");
  std::printf("| %13d | %15d | %-7s | %5.1f |\n", h.result.stats.oracle_rounds,
              h.result.stats.counterexamples, h.result.oracle_verdict.c_str(), h.median_ms);
  return 0;
}
