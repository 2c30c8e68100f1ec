// Benchmark of the CTL checker on generated models from 10^4 to 10^7
// transitions: products of four counters and random graphs with out-degree 4
// (seeded). Prints, per operator, the labelling time, transitions per second
// and peak working memory, the time with evidence, the growth of the time
// between sizes (with one sequential pass over the rows as the memory
// floor), and a side-by-side comparison with SPIN on the same state
// graph written as Promela (AG !bad <-> [] !bad, EF q <-> a violation of
// [] !q). Usage: ctl_bench [--min 10000] [--max 10000000] [--no-spin] [--reps N]
#include <malloc.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <new>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/files.h"
#include "common/status.h"
#include "common/subprocess.h"
#include "validator/ctl/check.h"
#include "validator/ctl/checker.h"
#include "validator/ctl/evidence.h"
#include "validator/ctl/formula.h"
#include "validator/ctl/kripke.h"

// ---- heap accounting: current and peak bytes held through operator new ----
namespace {
std::atomic<long long> g_heap_now{0}, g_heap_peak{0};
void CountAlloc(void* p) {
  const long long now = g_heap_now += static_cast<long long>(malloc_usable_size(p));
  long long peak = g_heap_peak.load();
  while (now > peak && !g_heap_peak.compare_exchange_weak(peak, now)) {
  }
}
}  // namespace
void* operator new(size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  CountAlloc(p);
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept {
  if (!p) return;
  g_heap_now -= static_cast<long long>(malloc_usable_size(p));
  std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, size_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t) noexcept { operator delete(p); }
void* operator new(size_t n, std::align_val_t align) {
  void* p = std::aligned_alloc(static_cast<size_t>(align), (n + static_cast<size_t>(align) - 1) /
                                                                static_cast<size_t>(align) *
                                                                static_cast<size_t>(align));
  if (!p) throw std::bad_alloc();
  CountAlloc(p);
  return p;
}
void operator delete(void* p, std::align_val_t) noexcept { operator delete(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { operator delete(p); }

namespace tracespec::ctl {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU time of this thread: on a machine shared with other work, time spent
// descheduled does not count (memory stalls do).
double CpuNow() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// CPU time (user + system) of the terminated children so far.
double ChildrenCpu() {
  rusage usage;
  getrusage(RUSAGE_CHILDREN, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 + usage.ru_stime.tv_sec +
         usage.ru_stime.tv_usec * 1e-6;
}

struct Generated {
  Kripke model;
  StateSet p, q, bad;
  double build_seconds = 0;
};

constexpr int kDegree = 4;

// Four counters c0..c3 (mod m0..m3); each transition increments one of them.
// p: c0 < m0/2; q: c0 = 0 and c1..c3 at their maximum; r: c1 = 0 (the
// fairness constraint of the fair EG row); bad: nowhere.
Generated Counters(uint64_t transitions) {
  const double n = transitions / static_cast<double>(kDegree);
  const uint32_t m = std::max(2u, static_cast<uint32_t>(std::floor(std::pow(n, 0.25))));
  const uint32_t m3 = std::max(2u, static_cast<uint32_t>(std::lround(n / (double(m) * m * m))));
  const uint32_t mod[4] = {m, m, m, m3};
  const uint32_t states = m * m * m * m3;
  const double t0 = Now();
  KripkeBuilder b("counters");
  b.AddAnonymousStates(states);
  b.ReserveTransitions(uint64_t{states} * kDegree);
  for (uint32_t s = 0; s < states; ++s) {
    uint32_t c[4], rest = s;
    for (int i = 0; i < 4; ++i) c[i] = rest % mod[i], rest /= mod[i];
    uint32_t stride = 1;
    for (int i = 0; i < 4; ++i) {
      const uint32_t next = s - c[i] * stride + ((c[i] + 1) % mod[i]) * stride;
      b.AddTransition(s, next);
      stride *= mod[i];
    }
  }
  // q: c0 = 0 and the other counters at their maximum, so that E[p U q]
  // (p: c0 < m0/2) has long p-paths into q.
  const uint32_t corner = states - m;
  for (uint32_t s = 0; s < states; ++s) {
    if (s % m < m / 2) (void)b.AddLabel("p", s);
    if ((s / m) % m == 0) (void)b.AddLabel("r", s);
  }
  (void)b.AddLabel("q", corner);
  (void)b.DeclareLabel("bad");
  b.AddInitial(0);
  Generated g;
  g.model = *std::move(b).Build(DeadlockPolicy::kError);
  g.build_seconds = Now() - t0;
  g.p = *g.model.Proposition("p");
  g.q = *g.model.Proposition("q");
  g.bad = *g.model.Proposition("bad");
  return g;
}

// Random graph, out-degree 4 (distinct successors), seeded. p: a random half
// of the states; q: the last state; r: a random tenth (fairness); bad:
// nowhere.
Generated Random(uint64_t transitions, uint64_t seed) {
  const uint32_t states = static_cast<uint32_t>(transitions / kDegree);
  std::mt19937_64 rng(seed);
  const double t0 = Now();
  KripkeBuilder b("random");
  b.AddAnonymousStates(states);
  b.ReserveTransitions(uint64_t{states} * kDegree);
  for (uint32_t s = 0; s < states; ++s) {
    uint32_t chosen[kDegree];
    for (int i = 0; i < kDegree; ++i) {
      uint32_t t;
      do {
        t = static_cast<uint32_t>(rng() % states);
      } while (std::find(chosen, chosen + i, t) != chosen + i);
      chosen[i] = t;
      b.AddTransition(s, t);
    }
    if (rng() & 1) (void)b.AddLabel("p", s);
    if (rng() % 10 == 0) (void)b.AddLabel("r", s);
  }
  (void)b.AddLabel("q", states - 1);
  (void)b.DeclareLabel("bad");
  b.AddInitial(0);
  Generated g;
  g.model = *std::move(b).Build(DeadlockPolicy::kError);
  g.build_seconds = Now() - t0;
  g.p = *g.model.Proposition("p");
  g.q = *g.model.Proposition("q");
  g.bad = *g.model.Proposition("bad");
  return g;
}

struct OpResult {
  double seconds = 0;       // best of the repetitions, labelling only
  double peak_mb = 0;       // peak extra heap during the operator
  double evidence_seconds;  // labelling of the formula + explanation in the initial state
};

struct Operator {
  const char* formula;
  std::function<StateSet(const Checker&, const Generated&)> run;
  bool fair = false;  // run under the fairness constraint r
};

// One sequential read of the forward rows: the memory floor of an operator
// that looks at every transition once. Its growth between sizes is the step
// from the cache to DRAM that no streaming operator can avoid.
StateSet OnePass(const Kripke& model) {
  const uint32_t n = model.num_states();
  const uint32_t* off = model.fwd_offsets();
  const uint32_t* tgt = model.fwd_targets();
  uint64_t sum = 0;
  for (uint32_t s = 0; s < n; ++s)
    for (uint32_t i = off[s]; i < off[s + 1]; ++i) sum += tgt[i];
  StateSet out(n);
  out.Insert(static_cast<uint32_t>(sum % n));
  return out;
}

std::vector<Operator> Operators() {
  return {
      {"(one pass)", [](const Checker& c, const Generated& g) { return OnePass(g.model); }},
      {"EX p", [](const Checker& c, const Generated& g) { return c.Ex(g.p); }},
      {"EF q", [](const Checker& c, const Generated& g) { return c.Ef(g.q); }},
      {"EG p", [](const Checker& c, const Generated& g) { return c.Eg(g.p); }},
      {"AF q", [](const Checker& c, const Generated& g) { return c.Af(g.q); }},
      {"AG !q", [](const Checker& c, const Generated& g) {
         StateSet not_q = g.q;
         not_q.Complement();
         return c.Ag(not_q);
       }},
      {"E[p U q]", [](const Checker& c, const Generated& g) { return c.Eu(g.p, g.q); }},
      {"A[p U q]", [](const Checker& c, const Generated& g) { return c.Au(g.p, g.q); }},
      {"EG p fair", [](const Checker& c, const Generated& g) { return c.Eg(g.p); }, /*fair=*/true},
      {"AF q fair", [](const Checker& c, const Generated& g) { return c.Af(g.q); }, /*fair=*/true},
  };
}

OpResult Measure(const Checker& checker, const Generated& g, const Operator& op, int reps) {
  OpResult r;
  r.seconds = 1e30;
  for (int i = 0; i < reps; ++i) {
    const long long base = g_heap_now.load();
    g_heap_peak = base;
    const double t0 = CpuNow();
    StateSet result = op.run(checker, g);
    const double t = CpuNow() - t0;
    r.seconds = std::min(r.seconds, t);
    r.peak_mb = (g_heap_peak.load() - base) / 1048576.0;
    if (result.size() != g.model.num_states()) std::abort();
  }
  std::string text = op.formula;
  if (text[0] == '(') {  // not a formula
    r.evidence_seconds = 0;
    return r;
  }
  if (op.fair) text = text.substr(0, text.size() - 5);
  Formula f = *ParseFormula(text);
  double best = 1e30;
  for (int i = 0; i < std::max(1, reps / 2); ++i) {
    const double t0 = CpuNow();
    std::vector<StateSet> sat = *checker.Label(f);
    Explainer explainer(checker, f, sat);
    Explanation e = *explainer.Explain(f.root(), g.model.initial_states()[0]);
    best = std::min(best, CpuNow() - t0);
    if (e.formula.empty()) std::abort();
  }
  r.evidence_seconds = best;
  return r;
}

// ------------------------------------------------------------------ SPIN ----

constexpr char kLoader[] = R"(/* Loads the state graph written by ctl_bench (before pan starts timing). */
#include <stdio.h>
#include <stdlib.h>
static unsigned* T;
static unsigned char* P;
static unsigned N;
__attribute__((constructor)) static void ts_load(void) {
  const char* path = getenv("TS_GRAPH");
  FILE* f = path ? fopen(path, "rb") : NULL;
  if (!f || fread(&N, 4, 1, f) != 1) { fprintf(stderr, "cannot read TS_GRAPH\n"); exit(2); }
  T = malloc((size_t)N * 4 * sizeof(unsigned));
  P = malloc((size_t)N * 2);
  if (fread(T, sizeof(unsigned), (size_t)N * 4, f) != (size_t)N * 4 || fread(P, 1, (size_t)N * 2, f) != (size_t)N * 2) {
    fprintf(stderr, "short TS_GRAPH\n"); exit(2);
  }
  fclose(f);
}
unsigned ts_succ(unsigned s, unsigned i) { return T[(size_t)s * 4 + i]; }
int ts_prop(unsigned s, int which) { return P[(size_t)which * N + s]; }
)";

// Promela for the graph: the state is `s`; `hit` caches prop(s) so that the
// never claim (the negation of [] !prop) can read it.
std::string Promela(int which) {
  std::string steps;
  for (int i = 0; i < kDegree; ++i)
    absl::StrAppend(&steps, "  :: c_code { now.s = ts_succ(now.s, ", i, "); now.hit = ts_prop(now.s, ", which,
                    "); }\n");
  return absl::StrCat(
      "c_decl {\n  extern unsigned ts_succ(unsigned s, unsigned i);\n  extern int ts_prop(unsigned s, int which);\n}\n"
      "int s = 0;\nbool hit = false;\n"
      "active proctype graph() {\n  do\n",
      steps,
      "  od\n}\n"
      "never {  /* !([] !hit) */\n  do\n  :: hit -> break\n  :: true\n  od\n}\n");
}

struct SpinRun {
  bool ok = false;
  std::string error;
  double search_seconds = 0, wall_seconds = 0, cpu_seconds = 0;
  long long states = 0, transitions = 0;
  int errors = 0;
};

absl::StatusOr<std::string> CompilePan(const std::string& dir, int which) {
  const std::string sub = absl::StrCat(dir, "/p", which);
  TS_RETURN_IF_ERROR(MakeDirs(sub));
  TS_RETURN_IF_ERROR(WriteFileAtomic(sub + "/model.pml", Promela(which)));
  TS_RETURN_IF_ERROR(WriteFileAtomic(sub + "/loader.c", kLoader));
  SubprocessOptions o;
  o.cwd = sub;
  TS_ASSIGN_OR_RETURN(SubprocessResult a, RunSubprocess({"spin", "-a", "model.pml"}, o));
  if (!a.Succeeded()) return absl::InternalError("spin -a: " + a.stdout_data + a.stderr_data);
  TS_ASSIGN_OR_RETURN(SubprocessResult c, RunSubprocess({"gcc", "-O2", "-DSAFETY", "-DMEMLIM=16000", "-o", "pan",
                                                         "pan.c", "loader.c"},
                                                        o));
  if (!c.Succeeded()) return absl::InternalError("gcc pan.c: " + c.stderr_data);
  return sub;
}

SpinRun RunPan(const std::string& dir, const std::string& graph, uint32_t states) {
  SpinRun r;
  SubprocessOptions o;
  o.cwd = dir;
  o.env = {{"TS_GRAPH", graph}};
  o.timeout_seconds = 600;
  const int hash_bits = std::max(16, static_cast<int>(std::ceil(std::log2(states + 1.0))) + 1);
  const double cpu0 = ChildrenCpu();
  auto run = RunSubprocess({dir + "/pan", absl::StrCat("-m", 2 * uint64_t{states} + 1000), absl::StrCat("-w", hash_bits)}, o);
  if (!run.ok() || run->timed_out || run->signal != 0) {
    r.error = run.ok() ? run->Describe() : std::string(run.status().message());
    return r;
  }
  const std::string& out = run->stdout_data;
  std::smatch m;
  if (std::regex_search(out, m, std::regex(R"(errors: (\d+))"))) r.errors = std::stoi(m[1]);
  if (std::regex_search(out, m, std::regex(R"((\d+) states, stored)"))) r.states = std::stoll(m[1]);
  if (std::regex_search(out, m, std::regex(R"((\d+) transitions)"))) r.transitions = std::stoll(m[1]);
  if (std::regex_search(out, m, std::regex(R"(elapsed time ([0-9.e+-]+) seconds)"))) r.search_seconds = std::stod(m[1]);
  r.wall_seconds = run->seconds;
  r.cpu_seconds = ChildrenCpu() - cpu0;
  r.ok = r.states > 0 && out.find("max search depth too small") == std::string::npos;
  if (!r.ok) r.error = out.substr(0, 300);
  return r;
}

absl::Status WriteGraph(const Generated& g, const std::string& path) {
  const uint32_t n = g.model.num_states();
  std::string bytes(4 + size_t{n} * 4 * 4 + size_t{n} * 2, '\0');
  std::memcpy(&bytes[0], &n, 4);
  for (uint32_t s = 0; s < n; ++s) {
    if (g.model.OutDegree(s) != kDegree) return absl::InternalError("out-degree is not 4");
    std::memcpy(&bytes[4 + size_t{s} * 16], g.model.SuccBegin(s), 16);
  }
  char* props = &bytes[4 + size_t{n} * 16];
  for (uint32_t s = 0; s < n; ++s) {
    props[s] = g.bad.Contains(s);
    props[n + s] = g.q.Contains(s);
  }
  return WriteFileAtomic(path, bytes);
}

double CheckSeconds(const Generated& g, const std::string& formula, bool* holds, int reps) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    const double t0 = CpuNow();
    CheckReport r = *CheckFormulas(g.model, {formula}, {});
    best = std::min(best, CpuNow() - t0);
    *holds = r.all_hold;
  }
  return best;
}

std::string Human(uint64_t n) {
  if (n >= 1000000) return absl::StrCat(n / 1000000.0 == n / 1000000 ? absl::StrCat(n / 1000000) : absl::StrFormat("%.2f", n / 1e6), "M");
  if (n >= 1000) return absl::StrCat(n / 1000, "k");
  return absl::StrCat(n);
}

int Main(int argc, char** argv) {
  uint64_t max = 10000000, min = 10000;
  bool spin = true;
  int reps = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--no-spin")) spin = false;
    else if (!std::strcmp(argv[i], "--max") && i + 1 < argc) max = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--min") && i + 1 < argc) min = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: ctl_bench [--min TRANSITIONS] [--max TRANSITIONS] [--no-spin] [--reps N]\n");
      return 2;
    }
  }
  if (spin && FindInPath("spin").empty()) {
    std::printf("spin not found in PATH: skipping the comparison\n");
    spin = false;
  }
  std::vector<uint64_t> sizes;
  for (uint64_t s = min; s <= max; s *= 10) sizes.push_back(s);
  const std::vector<Operator> ops = Operators();
  std::string tmp;
  if (spin) tmp = *MakeTempDir("ctl_bench");

  // times[family][op][size index]
  std::map<std::string, std::vector<std::vector<double>>> times;
  std::vector<std::string> spin_rows;
  std::printf("%-8s %7s %8s %8s %7s %-10s %10s %9s %9s %11s\n", "model", "|R|", "|S|", "build s", "MB",
              "operator", "cpu ms", "M tr/s", "peak MB", "+evid. ms");
  for (const char* family : {"counters", "random"}) {
    times[family].assign(ops.size(), std::vector<double>(sizes.size(), 0));
    for (size_t si = 0; si < sizes.size(); ++si) {
      Generated g = std::string(family) == "counters" ? Counters(sizes[si]) : Random(sizes[si], 42 + si);
      auto checker = Checker::Create(g.model, {});
      auto fair_checker = Checker::Create(g.model, {*ParseFormula("r")});
      const int r = sizes[si] >= 10000000 ? std::min(reps, 2) : reps + 2;
      for (size_t oi = 0; oi < ops.size(); ++oi) {
        OpResult res = Measure(ops[oi].fair ? **fair_checker : **checker, g, ops[oi], r);
        times[family][oi][si] = res.seconds;
        std::printf("%-8s %7s %8s %8.2f %7.1f %-10s %10.3f %9.1f %9.1f %11.3f\n", family,
                    Human(g.model.num_transitions()).c_str(), Human(g.model.num_states()).c_str(),
                    g.build_seconds, g.model.MemoryBytes() / 1048576.0, ops[oi].formula, res.seconds * 1e3,
                    g.model.num_transitions() / res.seconds / 1e6, res.peak_mb, res.evidence_seconds * 1e3);
      }
      std::fflush(stdout);
      if (!spin) continue;
      const std::string dir = absl::StrCat(tmp, "/", family, si);
      const std::string graph = dir + ".graph";
      if (!WriteGraph(g, graph).ok()) return 1;
      for (int which = 0; which < 2; ++which) {
        const std::string formula = which == 0 ? "AG !bad" : "EF q";
        bool holds = false;
        const double ours = CheckSeconds(g, formula, &holds, r);
        auto pan = CompilePan(dir, which);
        SpinRun s;
        if (pan.ok()) s = RunPan(*pan, graph, g.model.num_states());
        else s.error = std::string(pan.status().message());
        std::string row = absl::StrFormat("%-8s %7s %-8s %-6s %9.3f | %-8s", family,
                                          Human(g.model.num_transitions()), formula, holds ? "holds" : "fails",
                                          ours * 1e3, which == 0 ? "[] !bad" : "[] !q");
        if (s.ok) {
          row = absl::StrFormat("%-8s %7s %-8s %-6s %9.3f | %-8s %-8s %9.0f %9.1f %9.1f %12s %7.1f", family,
                                Human(g.model.num_transitions()), formula, holds ? "holds" : "fails", ours * 1e3,
                                which == 0 ? "[] !bad" : "[] !q", s.errors ? "violated" : "holds",
                                s.search_seconds * 1e3, s.cpu_seconds * 1e3, s.wall_seconds * 1e3,
                                absl::StrCat(Human(s.states), "/", Human(s.transitions)), s.cpu_seconds / ours);
        } else {
          absl::StrAppend(&row, "  SPIN failed: ", s.error);
        }
        spin_rows.push_back(row);
      }
    }
  }

  std::printf("\nGrowth of the labelling time per 10x transitions (1.0 = linear; goal <= 1.3 from 10^5 to 10^7)\n");
  std::printf("%-8s %-10s", "model", "operator");
  for (size_t si = 1; si < sizes.size(); ++si) std::printf(" %8s", absl::StrCat(Human(sizes[si - 1]), "->", Human(sizes[si])).c_str());
  const auto at = [&](uint64_t size) {
    return static_cast<int>(std::find(sizes.begin(), sizes.end(), size) - sizes.begin());
  };
  const int i5 = at(100000), i7 = at(10000000);
  const bool overall = i5 < static_cast<int>(sizes.size()) && i7 < static_cast<int>(sizes.size());
  if (overall) std::printf(" %14s", "100k->10M /100");
  std::printf("\n");
  for (const auto& [family, per_op] : times) {
    for (size_t oi = 0; oi < ops.size(); ++oi) {
      std::printf("%-8s %-10s", family.c_str(), ops[oi].formula);
      for (size_t si = 1; si < sizes.size(); ++si) std::printf(" %8.2f", per_op[oi][si] / per_op[oi][si - 1] / 10);
      if (overall) std::printf(" %14.2f", per_op[oi][i7] / per_op[oi][i5] / 100);
      std::printf("\n");
    }
  }
  if (spin) {
    std::printf("\nSide by side with SPIN on the same graph. Ours: CheckFormulas end to end (labelling, reachability,\n"
                "evidence), CPU ms. SPIN: pan compiled with -O2 -DSAFETY, exhaustive DFS until a violation; search ms as\n"
                "pan prints it (10 ms steps), CPU and wall ms of the whole pan run; x = SPIN CPU / ours.\n");
    std::printf("%-8s %7s %-8s %-6s %9s | %-8s %-8s %9s %9s %9s %12s %7s\n", "model", "|R|", "ours", "", "cpu ms",
                "SPIN", "verdict", "search ms", "cpu ms", "wall ms", "states/tr", "x");
    for (const std::string& row : spin_rows) std::printf("%s\n", row.c_str());
    (void)RemoveAll(tmp);
  }
  return 0;
}

}  // namespace
}  // namespace tracespec::ctl

int main(int argc, char** argv) { return tracespec::ctl::Main(argc, argv); }
