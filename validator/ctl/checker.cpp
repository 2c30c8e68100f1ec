// CTL labelling with fairness; algorithms described in checker.h.
#include "validator/ctl/checker.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"

namespace tracespec::ctl {

void ComputeFairSccs(const Kripke& model, const StateSet& within,
                     const std::vector<StateSet>& fairness, StateSet* fair_states,
                     SccResult* scc) {
  const uint32_t n = model.num_states();
  const uint32_t* off = model.fwd_offsets().data();
  const uint32_t* tgt = model.fwd_targets().data();
  constexpr uint32_t kDone = std::numeric_limits<uint32_t>::max();
  // index 0 = not visited yet; kDone = assigned to a component. A visited
  // state that is not done is on Tarjan's stack.
  std::vector<uint32_t> index(n, 0), low(n);
  std::vector<uint32_t> stack;
  struct Frame {
    uint32_t state;
    uint32_t next_edge;
  };
  std::vector<Frame> frames;
  uint32_t counter = 0;
  *fair_states = StateSet(n);
  if (scc) {
    scc->component.assign(n, kDone);
    scc->fair.clear();
  }
  within.ForEach([&](uint32_t root) {
    if (index[root] != 0) return;
    index[root] = low[root] = ++counter;
    stack.push_back(root);
    frames.push_back({root, off[root]});
    while (!frames.empty()) {
      Frame& frame = frames.back();
      const uint32_t v = frame.state;
      const uint32_t end = off[v + 1];
      bool descended = false;
      while (frame.next_edge < end) {
        const uint32_t w = tgt[frame.next_edge++];
        if (!within.Contains(w)) continue;
        const uint32_t iw = index[w];
        if (iw == 0) {
          index[w] = low[w] = ++counter;
          stack.push_back(w);
          frames.push_back({w, off[w]});
          descended = true;
          break;
        }
        if (iw != kDone && iw < low[v]) low[v] = iw;
      }
      if (descended) continue;
      frames.pop_back();
      if (low[v] == index[v]) {
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
          index[stack[i]] = kDone;
          if (fair) fair_states->Insert(stack[i]);
          if (scc) scc->component[stack[i]] = id;
        }
        if (scc) scc->fair.push_back(fair);
        stack.resize(first);
      }
      if (!frames.empty()) {
        const uint32_t u = frames.back().state;
        if (low[v] < low[u]) low[u] = low[v];
      }
    }
  });
}

namespace {

// Adds to `result` every state that reaches it backwards through states of
// `through` (all states when null). `result` is the seed and the answer.
void BackwardClosure(const Kripke& model, const StateSet* through, StateSet* result) {
  const uint32_t* off = model.rev_offsets().data();
  const uint32_t* src = model.rev_sources().data();
  std::vector<uint32_t> queue;
  queue.reserve(result->Count());
  result->ForEach([&](uint32_t s) { queue.push_back(s); });
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t t = queue[head];
    for (uint32_t i = off[t], end = off[t + 1]; i < end; ++i) {
      const uint32_t p = src[i];
      if (through && !through->Contains(p)) continue;
      if (result->InsertNew(p)) queue.push_back(p);
    }
  }
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
  const uint32_t* off = model_.rev_offsets().data();
  const uint32_t* src = model_.rev_sources().data();
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
