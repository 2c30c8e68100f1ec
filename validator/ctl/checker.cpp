// CTL labelling with fairness; algorithms described in checker.h.
#include "validator/ctl/checker.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"

namespace tracespec::ctl {

namespace {

// Adds to `result` every state from which a state of `result` is reachable
// along the rows `off`/`adj` (reverse rows: backward reachability; forward
// rows: forward reachability), through states of `through` only (any state
// when null). `result` is the seed and the answer. The search starts from
// the states of `start` (all of `result` when null; `start` must be part of
// `result` and every other state of `result` must already be closed).
void Closure(const Kripke& model, const uint32_t* off, const uint32_t* adj, const StateSet* through,
             StateSet* result, const StateSet* start = nullptr) {
  HugeArray<uint32_t> queue(model.num_states());
  uint32_t tail = 0;
  (start ? start : result)->ForEach([&](uint32_t s) { queue[tail++] = s; });
  // The queue says which rows come next: prefetch their offsets, then their
  // rows, so that the random accesses of a large graph overlap.
  constexpr uint32_t kAhead = 16;
  for (uint32_t head = 0; head < tail; ++head) {
    if (head + kAhead < tail) __builtin_prefetch(&off[queue[head + kAhead]]);
    if (head + kAhead / 2 < tail) __builtin_prefetch(&adj[off[queue[head + kAhead / 2]]]);
    const uint32_t t = queue[head];
    for (uint32_t i = off[t], end = off[t + 1]; i < end; ++i) {
      const uint32_t p = adj[i];
      if (through && !through->Contains(p)) continue;
      if (result->InsertNew(p)) queue[tail++] = p;
    }
  }
}

// Backward reachability of `result` through `through`. When the seed covers
// most states, one sequential pull sweep (does a state outside the set have a
// successor inside?) finds the states next to the set, and only those are
// searched from; otherwise the search starts from every seed.
void BackwardClosure(const Kripke& model, const StateSet* through, StateSet* result) {
  const uint32_t n = model.num_states();
  if (result->Count() * 2 <= n) {
    Closure(model, model.rev_offsets(), model.rev_sources(), through, result);
    return;
  }
  const uint32_t* off = model.fwd_offsets();
  const uint32_t* tgt = model.fwd_targets();
  StateSet added(n);
  const uint64_t* in = result->data();
  const uint64_t* allowed = through ? through->data() : nullptr;
  for (size_t w = 0; w < result->num_words(); ++w) {
    uint64_t candidates = ~in[w] & (allowed ? allowed[w] : ~uint64_t{0});
    if (w + 1 == result->num_words() && n % 64 != 0) candidates &= (uint64_t{1} << (n % 64)) - 1;
    for (; candidates; candidates &= candidates - 1) {
      const uint32_t x = static_cast<uint32_t>(w * 64 + __builtin_ctzll(candidates));
      for (uint32_t i = off[x], end = off[x + 1]; i < end; ++i) {
        if (result->Contains(tgt[i])) {
          added.Insert(x);
          break;
        }
      }
    }
  }
  result->UnionWith(added);
  // Everything else that reaches the set reaches one of the added states.
  Closure(model, model.rev_offsets(), model.rev_sources(), through, result, &added);
}

}  // namespace

namespace {

// A state of `within` with a successor and a predecessor in `within` (so it
// may lie on a cycle), looking at the first few members only; n if none.
uint32_t PickPivot(const Kripke& model, const StateSet& within) {
  int looked = 0;
  for (size_t w = 0; w < within.num_words() && looked < 64; ++w) {
    for (uint64_t bits = within.data()[w]; bits && looked < 64; bits &= bits - 1, ++looked) {
      const uint32_t s = static_cast<uint32_t>(w * 64 + __builtin_ctzll(bits));
      bool out = false, in = false;
      for (const uint32_t* t = model.SuccBegin(s); t != model.SuccEnd(s) && !out; ++t) out = within.Contains(*t);
      for (const uint32_t* t = model.PredBegin(s); t != model.PredEnd(s) && !in; ++t) in = within.Contains(*t);
      if (out && in) return s;
    }
  }
  return model.num_states();
}

}  // namespace

void ComputeFairSccs(const Kripke& model, const StateSet& within,
                     const std::vector<StateSet>& fairness, StateSet* fair_states,
                     SccResult* scc) {
  const uint32_t n = model.num_states();
  const uint32_t* off = model.fwd_offsets();
  const uint32_t* tgt = model.fwd_targets();
  constexpr uint32_t kDone = std::numeric_limits<uint32_t>::max();
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
  *fair_states = StateSet(n);
  if (scc) {
    scc->component.assign(n, kDone);
    scc->fair.clear();
  }
  // One round of the forward-backward algorithm first: the component of a
  // pivot is what the pivot reaches and what reaches it. Large graphs usually
  // have one giant component, which two prefetched breadth-first searches
  // find much faster than a depth-first search chasing one cache miss after
  // another; Tarjan then handles what is left. Still linear: two searches.
  StateSet rest = within;
  const uint32_t pivot = PickPivot(model, within);
  if (pivot < n) {
    StateSet forward(n);
    forward.Insert(pivot);
    Closure(model, model.fwd_offsets(), model.fwd_targets(), &within, &forward);
    StateSet component(n);
    component.Insert(pivot);
    Closure(model, model.rev_offsets(), model.rev_sources(), &forward, &component);
    bool fair = component.Count() > 1 || model.HasTransition(pivot, pivot);
    for (const StateSet& f : fairness) fair = fair && f.Intersects(component);
    if (fair) fair_states->UnionWith(component);
    if (scc) {
      component.ForEach([&](uint32_t s) { scc->component[s] = 0; });
      scc->fair.push_back(fair);
    }
    rest.Subtract(component);
  }
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

// EG f without fairness as a greatest fixpoint with successor counters:
// repeatedly drop f-states none of whose successors is left. What remains is
// exactly EG f (every remaining state has a remaining successor, so an
// infinite f-path starts there). Linear, and mostly sequential sweeps.
StateSet UnfairEg(const Kripke& model, const StateSet& f) {
  const uint32_t n = model.num_states();
  const uint32_t* foff = model.fwd_offsets();
  const uint32_t* tgt = model.fwd_targets();
  const uint32_t* roff = model.rev_offsets();
  const uint32_t* src = model.rev_sources();
  StateSet result = f;
  HugeArray<uint32_t> count(n, 0);
  HugeArray<uint32_t> queue;
  f.ForEach([&](uint32_t s) {
    uint32_t c = 0;
    for (uint32_t i = foff[s], end = foff[s + 1]; i < end; ++i) c += f.Contains(tgt[i]);
    count[s] = c;
    if (c == 0) {
      result.Erase(s);
      queue.push_back(s);
    }
  });
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t t = queue[head];
    for (uint32_t i = roff[t], end = roff[t + 1]; i < end; ++i) {
      const uint32_t p = src[i];
      if (result.Contains(p) && --count[p] == 0) {
        result.Erase(p);
        queue.push_back(p);
      }
    }
  }
  return result;
}

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
  BackwardClosure(model_, &f, &result);
  return result;
}

StateSet Checker::Ef(const StateSet& f) const {
  StateSet result = f;
  if (has_fairness()) result.IntersectWith(fair_);
  BackwardClosure(model_, nullptr, &result);
  return result;
}

StateSet Checker::Eg(const StateSet& f) const {
  if (fairness_.empty()) return UnfairEg(model_, f);
  StateSet result;
  ComputeFairSccs(model_, f, fairness_, &result, nullptr);
  BackwardClosure(model_, &f, &result);
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
