// The push/pull closures, pruning and fair SCCs on graphs large enough for
// every strategy to run (sweeps that pay, sweeps cut short, pushes with
// lazily counted neighbours), against plain breadth-first searches and
// Tarjan-free reference computations.
#include "validator/ctl/closure.h"

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "validator/ctl/checker.h"

namespace tracespec::ctl {
namespace {

struct Graph {
  uint32_t n = 0;
  std::vector<std::vector<uint32_t>> succ, pred;
  Kripke model;
};

// Random graphs of several shapes: uniform, "search order" (most edges go
// to higher indices, as in generated state spaces), and chains of
// components (long removal and reachability chains).
Graph MakeGraph(std::mt19937& rng, int shape, uint32_t n) {
  Graph g;
  g.n = n;
  g.succ.resize(n);
  g.pred.resize(n);
  KripkeBuilder b("g");
  b.AddAnonymousStates(n);
  for (uint32_t s = 0; s < n; ++s) {
    const int degree = static_cast<int>(rng() % 4);  // may be 0: pruning has work
    for (int k = 0; k < degree; ++k) {
      uint32_t t;
      switch (shape) {
        case 0: t = rng() % n; break;
        case 1: t = rng() % 8 == 0 ? rng() % n : std::min(n - 1, s + 1 + static_cast<uint32_t>(rng() % 16)); break;
        default: t = rng() % 3 == 0 ? (s + 1) % n : (s / 32) * 32 + rng() % 32; t = std::min(t, n - 1); break;
      }
      if (std::find(g.succ[s].begin(), g.succ[s].end(), t) != g.succ[s].end()) continue;
      g.succ[s].push_back(t);
      g.pred[t].push_back(s);
      b.AddTransition(s, t);
    }
  }
  b.AddInitial(0);
  g.model = *std::move(b).Build(DeadlockPolicy::kSelfLoop);
  // The builder added self-loops to deadlocks: mirror them.
  for (uint32_t s : g.model.self_loops_added()) {
    g.succ[s].push_back(s);
    g.pred[s].push_back(s);
  }
  return g;
}

StateSet RandomSet(std::mt19937& rng, uint32_t n, int percent) {
  StateSet s(n);
  for (uint32_t i = 0; i < n; ++i)
    if (static_cast<int>(rng() % 100) < percent) s.Insert(i);
  return s;
}

// Plain BFS closure.
StateSet ReferenceClose(const Graph& g, Direction d, const StateSet* through, StateSet seed) {
  const auto& rows = d == Direction::kBackward ? g.pred : g.succ;
  std::deque<uint32_t> queue;
  seed.ForEach([&](uint32_t s) { queue.push_back(s); });
  while (!queue.empty()) {
    const uint32_t t = queue.front();
    queue.pop_front();
    for (uint32_t p : rows[t])
      if ((!through || through->Contains(p)) && seed.InsertNew(p)) queue.push_back(p);
  }
  return seed;
}

// Greatest fixpoint by repeated passes.
StateSet ReferencePrune(const Graph& g, Direction d, StateSet set) {
  const auto& rows = d == Direction::kForward ? g.succ : g.pred;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t s = 0; s < g.n; ++s) {
      if (!set.Contains(s)) continue;
      bool keep = false;
      for (uint32_t t : rows[s]) keep = keep || set.Contains(t);
      if (!keep) {
        set.Erase(s);
        changed = true;
      }
    }
  }
  return set;
}

TEST(Closure, AgreesWithBreadthFirstSearchOnEveryShape) {
  std::mt19937 rng(2024);
  int cases = 0;
  for (int round = 0; round < 60; ++round) {
    const int shape = round % 3;
    const uint32_t n = 1 + rng() % (round < 30 ? 3000 : 40000);
    Graph g = MakeGraph(rng, shape, n);
    for (const Direction d : {Direction::kBackward, Direction::kForward}) {
      for (int seeds : {1, 3, 30}) {
        StateSet seed(n);
        for (int i = 0; i < seeds; ++i) seed.Insert(rng() % n);
        StateSet through = RandomSet(rng, n, 40 + static_cast<int>(rng() % 60));
        const bool use_through = rng() % 2 == 0;
        StateSet ours = seed;
        Close(g.model, d, use_through ? &through : nullptr, &ours);
        ASSERT_EQ(ours, ReferenceClose(g, d, use_through ? &through : nullptr, seed))
            << "round " << round << " shape " << shape << " n " << n;
        ++cases;
      }
      // `start`: the rest of the seed is closed already.
      StateSet closed(n);
      closed.Insert(rng() % n);
      closed = ReferenceClose(g, d, nullptr, closed);
      StateSet start(n);
      start.Insert(rng() % n);
      StateSet ours = closed;
      ours.UnionWith(start);
      Close(g.model, d, nullptr, &ours, &start);
      StateSet expected = closed;
      expected.UnionWith(ReferenceClose(g, d, nullptr, start));
      ASSERT_EQ(ours, expected) << "start, round " << round;
    }
  }
  EXPECT_EQ(cases, 360);
}

TEST(Prune, AgreesWithRepeatedPasses) {
  std::mt19937 rng(77);
  for (int round = 0; round < 60; ++round) {
    const int shape = round % 3;
    const uint32_t n = 1 + rng() % (round < 30 ? 3000 : 40000);
    Graph g = MakeGraph(rng, shape, n);
    for (const Direction d : {Direction::kForward, Direction::kBackward}) {
      StateSet set = RandomSet(rng, n, 30 + static_cast<int>(rng() % 70));
      StateSet ours = set;
      Prune(g.model, d, &ours);
      ASSERT_EQ(ours, ReferencePrune(g, d, set)) << "round " << round << " shape " << shape << " n " << n;
    }
  }
}

TEST(FairSccs, ComponentsAndFairnessAgreeWithReachability) {
  std::mt19937 rng(5);
  for (int round = 0; round < 24; ++round) {
    const uint32_t n = 1 + rng() % 3000;
    Graph g = MakeGraph(rng, round % 3, n);
    StateSet within = RandomSet(rng, n, 50 + static_cast<int>(rng() % 50));
    std::vector<StateSet> fairness;
    for (int i = 0; i < round % 3; ++i) fairness.push_back(RandomSet(rng, n, 20));
    StateSet fair;
    SccResult scc;
    ComputeFairSccs(g.model, within, fairness, &fair, &scc);
    // Reference: u and v share a component iff each reaches the other inside
    // `within`; a component is fair iff it has a cycle and meets every set.
    for (int probe = 0; probe < 40; ++probe) {
      const uint32_t u = rng() % n;
      if (!within.Contains(u)) continue;
      StateSet from_u(n), to_u(n);
      from_u.Insert(u);
      to_u.Insert(u);
      from_u = ReferenceClose(g, Direction::kForward, &within, from_u);
      to_u = ReferenceClose(g, Direction::kBackward, &within, to_u);
      StateSet component = from_u;
      component.IntersectWith(to_u);
      within.ForEach([&](uint32_t v) {
        ASSERT_EQ(scc.component[v] == scc.component[u], component.Contains(v)) << "round " << round;
      });
      bool cycle = component.Count() > 1 || g.model.HasTransition(u, u);
      for (const StateSet& f : fairness) cycle = cycle && f.Intersects(component);
      ASSERT_EQ(fair.Contains(u), cycle) << "round " << round << " state " << u;
      ASSERT_EQ(scc.fair[scc.component[u]], cycle);
    }
  }
}

}  // namespace
}  // namespace tracespec::ctl
