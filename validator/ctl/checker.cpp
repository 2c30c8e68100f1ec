// CTL labelling with fairness; algorithms described in checker.h.
#include "validator/ctl/checker.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "validator/ctl/closure.h"

namespace tracespec::ctl {

namespace {

// A pivot for a forward-backward round: among a sample of `within` (its
// highest members and members spread over the rest), the state with the most
// in- times out-edges, ties broken towards the highest, that has a successor
// and a predecessor in `within` (so it may lie on a cycle). Well-connected
// states lie in the giant component of a random graph; in graphs numbered in
// search order, high states tend to reach little besides their own
// component. n when `within` is empty.
uint32_t PickPivot(const Kripke& model, const StateSet& within) {
  const uint32_t n = model.num_states();
  const size_t words = within.num_words();
  uint32_t best = n;
  uint64_t best_score = 0;
  auto consider = [&](uint32_t s) {
    const uint64_t score = (uint64_t{model.OutDegree(s)} * (model.PredEnd(s) - model.PredBegin(s)) + 1) * 2;
    if (score < best_score || (score == best_score && s < best)) return;
    bool out = false, in = false;
    for (const uint32_t* t = model.SuccBegin(s); t != model.SuccEnd(s) && !out; ++t) out = within.Contains(*t);
    for (const uint32_t* t = model.PredBegin(s); t != model.PredEnd(s) && !in; ++t) in = within.Contains(*t);
    const uint64_t real = out && in ? score : 1;  // fallback: any member
    if (real > best_score || (real == best_score && s > best)) {
      best = s;
      best_score = real;
    }
  };
  // The highest members, then the highest member of every step-th word.
  int looked = 0;
  for (size_t w = words; w-- > 0 && looked < 64;)
    for (uint64_t bits = within.data()[w]; bits && looked < 64; ++looked) {
      const int bit = 63 - __builtin_clzll(bits);
      bits &= ~(uint64_t{1} << bit);
      consider(static_cast<uint32_t>(w * 64 + bit));
    }
  const size_t step = words / 4096 + 1;
  for (size_t w = 0; w < words; w += step)
    if (const uint64_t bits = within.data()[w]) consider(static_cast<uint32_t>(w * 64 + 63 - __builtin_clzll(bits)));
  return best;
}

}  // namespace

void ComputeFairSccs(const Kripke& model, const StateSet& within,
                     const std::vector<StateSet>& fairness, StateSet* fair_states,
                     SccResult* scc) {
  const uint32_t n = model.num_states();
  const uint32_t* off = model.fwd_offsets();
  const uint32_t* tgt = model.fwd_targets();
  constexpr uint32_t kDone = std::numeric_limits<uint32_t>::max();
  *fair_states = StateSet(n);
  if (scc) {
    scc->component.assign(n, kDone);
    scc->fair.clear();
  }
  StateSet rest = within;
  // Forward-backward rounds: the component of a pivot is what the pivot
  // reaches and what reaches it, found with two closures (sequential sweeps
  // and prefetched searches) instead of a depth-first search chasing one
  // cache miss after another (pivots: PickPivot). A round pays when its component is at least half of what the pivot reaches
  // and 1/64 of the states (each round costs O(|S|/64) for its sets); rounds
  // go on while they pay, allowing two that do not. Still linear.
  for (int misses = 0; misses < 2;) {
    const uint32_t pivot = PickPivot(model, rest);
    if (pivot >= n) break;
    StateSet forward(n);
    forward.Insert(pivot);
    Close(model, Direction::kForward, &rest, &forward);
    StateSet component(n);
    component.Insert(pivot);
    Close(model, Direction::kBackward, &forward, &component);
    const uint64_t size = component.Count();
    bool fair = size > 1 || model.HasTransition(pivot, pivot);
    for (const StateSet& f : fairness) fair = fair && f.Intersects(component);
    if (fair) fair_states->UnionWith(component);
    if (scc) {
      const uint32_t id = static_cast<uint32_t>(scc->fair.size());
      component.ForEach([&](uint32_t s) { scc->component[s] = id; });
      scc->fair.push_back(fair);
    }
    rest.Subtract(component);
    if (size * 2 < forward.Count() || size * 64 < n) ++misses;
  }
  // Trimming what is left: a state without a successor, or without a
  // predecessor, left in `rest` lies on no cycle inside it: a component of
  // its own, not fair. (A self-loop is both, so such states stay.)
  {
    StateSet kept = rest;
    Prune(model, Direction::kForward, &kept);
    Prune(model, Direction::kBackward, &kept);
    if (scc) {
      rest.Subtract(kept);
      rest.ForEach([&](uint32_t s) {
        scc->component[s] = static_cast<uint32_t>(scc->fair.size());
        scc->fair.push_back(false);
      });
    }
    rest = std::move(kept);
  }
  if (rest.Empty()) return;

  // index 0 = not visited yet; kDone = assigned to a component. A visited
  // state that is not done is on Tarjan's stack.
  struct Entry {
    uint32_t index;
    uint32_t low;
  };
  HugeArray<Entry> entry(n, Entry{0, 0});
  HugeArray<uint32_t> stack;
  struct Frame {
    uint32_t state;
    uint32_t next_edge;
  };
  HugeArray<Frame> frames;
  uint32_t counter = 0;
  // A new state's successors are all looked at soon: fetch their entries
  // together instead of one cache miss after the other.
  auto Prefetch = [&](uint32_t v) {
    for (uint32_t i = off[v], end = off[v + 1]; i < end; ++i) {
      __builtin_prefetch(&entry[tgt[i]]);
      __builtin_prefetch(&off[tgt[i]]);
    }
  };
  rest.ForEach([&](uint32_t root) {
    if (entry[root].index != 0) return;
    ++counter;
    entry[root] = {counter, counter};
    stack.push_back(root);
    frames.push_back({root, off[root]});
    Prefetch(root);
    while (!frames.empty()) {
      Frame& frame = frames.back();
      const uint32_t v = frame.state;
      const uint32_t end = off[v + 1];
      bool descended = false;
      while (frame.next_edge < end) {
        const uint32_t w = tgt[frame.next_edge++];
        if (!rest.Contains(w)) continue;
        const uint32_t iw = entry[w].index;
        if (iw == 0) {
          ++counter;
          entry[w] = {counter, counter};
          stack.push_back(w);
          frames.push_back({w, off[w]});
          Prefetch(w);
          descended = true;
          break;
        }
        if (iw != kDone && iw < entry[v].low) entry[v].low = iw;
      }
      if (descended) continue;
      frames.pop_back();
      if (entry[v].low == entry[v].index) {
        size_t first = stack.size();
        do {
          --first;
        } while (stack[first] != v);
        const size_t size = stack.size() - first;
        bool fair = size > 1 || model.HasTransition(v, v);
        for (size_t f = 0; fair && f < fairness.size(); ++f) {
          bool meets = false;
          for (size_t i = first; i < stack.size() && !meets; ++i) meets = fairness[f].Contains(stack[i]);
          fair = meets;
        }
        const uint32_t id = scc ? static_cast<uint32_t>(scc->fair.size()) : 0;
        for (size_t i = first; i < stack.size(); ++i) {
          entry[stack[i]].index = kDone;
          if (fair) fair_states->Insert(stack[i]);
          if (scc) scc->component[stack[i]] = id;
        }
        if (scc) scc->fair.push_back(fair);
        stack.resize(first);
      }
      if (!frames.empty()) {
        const uint32_t u = frames.back().state;
        if (entry[v].low < entry[u].low) entry[u].low = entry[v].low;
      }
    }
  });
}

namespace {

StateSet Not(StateSet s) {
  s.Complement();
  return s;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Checker>> Checker::Create(const Kripke& model,
                                                         const std::vector<Formula>& fairness) {
  std::unique_ptr<Checker> checker(new Checker(model));
  // Fairness formulas are labelled without fairness (fairness_ still empty).
  std::vector<StateSet> sets;
  for (const Formula& f : fairness) {
    TS_ASSIGN_OR_RETURN(std::vector<StateSet> sat, checker->Label(f));
    sets.push_back(std::move(sat.back()));
  }
  checker->fairness_ = std::move(sets);
  // With fairness_ set, Eg computes fair EG; fair = EG true.
  checker->fair_ = StateSet(model.num_states(), /*full=*/true);
  if (!checker->fairness_.empty()) checker->fair_ = checker->Eg(StateSet(model.num_states(), true));
  return checker;
}

absl::Status Checker::Bind(const Formula& formula) const {
  for (const Formula::Node& node : formula.nodes) {
    if (node.op != Op::kAtom || model_.Proposition(node.atom)) continue;
    std::vector<std::string> labels;
    for (size_t i = 0; i < model_.num_labels() && i < 20; ++i) labels.push_back(model_.label_name(i));
    return absl::InvalidArgumentError(absl::StrCat(
        "formula \"", formula.text, "\": column ", node.column, ": unknown proposition '", node.atom,
        "' (", labels.empty() ? "the model has no labels" : "labels: " + absl::StrJoin(labels, ", "),
        model_.num_labels() > 20 ? ", ..." : "", "; every state name is a proposition too)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<StateSet>> Checker::Label(const Formula& formula) const {
  TS_RETURN_IF_ERROR(Bind(formula));
  std::vector<StateSet> sat;
  sat.reserve(formula.nodes.size());
  for (int i = 0; i < static_cast<int>(formula.nodes.size()); ++i) sat.push_back(Eval(formula, i, sat));
  return sat;
}

StateSet Checker::Eval(const Formula& formula, int node, const std::vector<StateSet>& sat) const {
  const Formula::Node& n = formula.nodes[node];
  const uint32_t size = model_.num_states();
  switch (n.op) {
    case Op::kTrue: return StateSet(size, true);
    case Op::kFalse: return StateSet(size);
    case Op::kAtom: return *model_.Proposition(n.atom);
    case Op::kNot: return Not(sat[n.lhs]);
    case Op::kAnd: { StateSet s = sat[n.lhs]; s.IntersectWith(sat[n.rhs]); return s; }
    case Op::kOr: { StateSet s = sat[n.lhs]; s.UnionWith(sat[n.rhs]); return s; }
    case Op::kImplies: { StateSet s = sat[n.lhs]; s.ImpliesWith(sat[n.rhs]); return s; }
    case Op::kIff: { StateSet s = sat[n.lhs]; s.IffWith(sat[n.rhs]); return s; }
    case Op::kEX: return Ex(sat[n.lhs]);
    case Op::kAX: return Ax(sat[n.lhs]);
    case Op::kEF: return Ef(sat[n.lhs]);
    case Op::kAF: return Af(sat[n.lhs]);
    case Op::kEG: return Eg(sat[n.lhs]);
    case Op::kAG: return Ag(sat[n.lhs]);
    case Op::kEU: return Eu(sat[n.lhs], sat[n.rhs]);
    case Op::kAU: return Au(sat[n.lhs], sat[n.rhs]);
  }
  return StateSet(size);
}

StateSet Checker::Ex(const StateSet& f) const {
  StateSet target = f;
  if (has_fairness()) target.IntersectWith(fair_);
  StateSet result(model_.num_states());
  const uint32_t* off = model_.rev_offsets();
  const uint32_t* src = model_.rev_sources();
  target.ForEach([&](uint32_t t) {
    for (uint32_t i = off[t], end = off[t + 1]; i < end; ++i) result.Insert(src[i]);
  });
  return result;
}

StateSet Checker::Eu(const StateSet& f, const StateSet& g) const {
  StateSet result = g;
  if (has_fairness()) result.IntersectWith(fair_);
  Close(model_, Direction::kBackward, &f, &result);
  return result;
}

StateSet Checker::Ef(const StateSet& f) const {
  StateSet result = f;
  if (has_fairness()) result.IntersectWith(fair_);
  Close(model_, Direction::kBackward, nullptr, &result);
  return result;
}

StateSet Checker::Eg(const StateSet& f) const {
  if (fairness_.empty()) {
    // The greatest fixpoint: drop f-states without a successor left.
    StateSet result = f;
    Prune(model_, Direction::kForward, &result);
    return result;
  }
  StateSet result;
  ComputeFairSccs(model_, f, fairness_, &result, nullptr);
  Close(model_, Direction::kBackward, &f, &result);
  return result;
}

StateSet Checker::Ax(const StateSet& f) const { return Not(Ex(Not(f))); }
StateSet Checker::Af(const StateSet& f) const { return Not(Eg(Not(f))); }
StateSet Checker::Ag(const StateSet& f) const { return Not(Ef(Not(f))); }

StateSet Checker::Au(const StateSet& f, const StateSet& g) const {
  const StateSet not_g = Not(g);
  StateSet bad = Not(f);
  bad.IntersectWith(not_g);
  StateSet result = Eu(not_g, bad);
  result.UnionWith(Eg(not_g));
  result.Complement();
  return result;
}

}  // namespace tracespec::ctl
