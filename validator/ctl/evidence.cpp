// Witnesses and counterexamples for CTL verdicts; see evidence.h.
#include "validator/ctl/evidence.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "common/status.h"

namespace tracespec::ctl {

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Breadth-first search from `from` for a state satisfying `goal`, expanding
// only `from` and states satisfying `allowed`. With `need_step` the path has
// at least one transition (so `from` itself can be the goal of a cycle).
// Returns the shortest such path, or an empty vector.
template <typename Allowed, typename Goal>
std::vector<uint32_t> Bfs(const Kripke& model, uint32_t from, Allowed allowed, Goal goal,
                          bool need_step) {
  if (!need_step && goal(from)) return {from};
  HugeArray<uint32_t> parent(model.num_states(), kNone);
  HugeArray<uint32_t> queue{from};
  parent[from] = from;
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t v = queue[head];
    for (const uint32_t* it = model.SuccBegin(v); it != model.SuccEnd(v); ++it) {
      const uint32_t w = *it;
      if (goal(w)) {
        std::vector<uint32_t> path{w};
        for (uint32_t x = v; x != from; x = parent[x]) path.push_back(x);
        path.push_back(from);
        std::reverse(path.begin(), path.end());
        return path;
      }
      if (parent[w] == kNone && allowed(w)) {
        parent[w] = v;
        queue.push_back(w);
      }
    }
  }
  return {};
}

StateSet Not(StateSet s) {
  s.Complement();
  return s;
}

}  // namespace

absl::Status ValidateTrace(const Kripke& model, const Trace& trace) {
  if (trace.states.empty()) return absl::InternalError("empty evidence trace");
  for (size_t i = 0; i + 1 < trace.states.size(); ++i)
    if (!model.HasTransition(trace.states[i], trace.states[i + 1]))
      return absl::InternalError(absl::StrCat("evidence trace uses a missing transition ",
                                              model.StateName(trace.states[i]), " -> ",
                                              model.StateName(trace.states[i + 1])));
  if (trace.loop_start >= 0) {
    if (static_cast<size_t>(trace.loop_start) >= trace.states.size() ||
        !model.HasTransition(trace.states.back(), trace.states[trace.loop_start]))
      return absl::InternalError("evidence lasso does not close");
  }
  return absl::OkStatus();
}

std::vector<uint32_t> Explainer::ShortestPath(uint32_t from, const StateSet* through,
                                              const StateSet& goal) const {
  return Bfs(
      checker_.model(), from, [&](uint32_t s) { return through == nullptr || through->Contains(s); },
      [&](uint32_t s) { return goal.Contains(s); }, /*need_step=*/false);
}

absl::StatusOr<Trace> Explainer::Lasso(uint32_t from, const StateSet& eg) const {
  const Kripke& model = checker_.model();
  if (!eg.Contains(from)) return absl::InternalError("lasso requested outside its EG set");
  if (!checker_.has_fairness()) return UnfairLasso(from, eg);
  StateSet fair_scc_states;
  SccResult scc;
  ComputeFairSccs(model, eg, checker_.fairness_sets(), &fair_scc_states, &scc);
  std::vector<uint32_t> prefix = ShortestPath(from, &eg, fair_scc_states);
  if (prefix.empty()) return absl::InternalError("no fair cycle reachable inside the EG set");
  const uint32_t u = prefix.back();
  const uint32_t component = scc.component[u];
  auto in_component = [&](uint32_t s) { return eg.Contains(s) && scc.component[s] == component; };
  std::vector<uint32_t> cycle{u};
  uint32_t current = u;
  for (const StateSet& fairness : checker_.fairness_sets()) {
    bool visited = false;
    for (uint32_t s : cycle) visited = visited || fairness.Contains(s);
    if (visited) continue;
    std::vector<uint32_t> leg = Bfs(
        model, current, in_component,
        [&](uint32_t s) { return in_component(s) && fairness.Contains(s); }, /*need_step=*/false);
    if (leg.empty()) return absl::InternalError("fair component misses a fairness set");
    cycle.insert(cycle.end(), leg.begin() + 1, leg.end());
    current = cycle.back();
  }
  std::vector<uint32_t> back = Bfs(
      model, current, in_component, [&](uint32_t s) { return s == u; }, /*need_step=*/true);
  if (back.empty()) return absl::InternalError("fair component has no cycle");
  cycle.insert(cycle.end(), back.begin() + 1, back.end() - 1);
  Trace trace;
  trace.states = prefix;
  trace.states.insert(trace.states.end(), cycle.begin() + 1, cycle.end());
  trace.loop_start = static_cast<int>(prefix.size()) - 1;
  trace.claim_end = static_cast<int>(trace.states.size()) - 1;
  TS_RETURN_IF_ERROR(ValidateTrace(model, trace));
  return trace;
}

absl::StatusOr<Trace> Explainer::UnfairLasso(uint32_t from, const StateSet& eg) const {
  // Every state of eg has a successor in eg: walking along first such
  // successors must revisit a state, which shows a cycle inside eg. Then the
  // shortest path from `from` to that cycle, and the shortest cycle inside eg
  // through the state reached, make the lasso short.
  const Kripke& model = checker_.model();
  std::unordered_map<uint32_t, uint32_t> position;
  std::vector<uint32_t> walk;
  uint32_t v = from;
  while (position.emplace(v, static_cast<uint32_t>(walk.size())).second) {
    walk.push_back(v);
    uint32_t next = kNone;
    for (const uint32_t* it = model.SuccBegin(v); it != model.SuccEnd(v) && next == kNone; ++it)
      if (eg.Contains(*it)) next = *it;
    if (next == kNone) return absl::InternalError("EG set state without a successor in the set");
    v = next;
  }
  StateSet on_cycle(model.num_states());
  for (size_t i = position[v]; i < walk.size(); ++i) on_cycle.Insert(walk[i]);
  std::vector<uint32_t> prefix = ShortestPath(from, &eg, on_cycle);
  const uint32_t u = prefix.back();
  std::vector<uint32_t> back = Bfs(
      model, u, [&](uint32_t s) { return eg.Contains(s); }, [&](uint32_t s) { return s == u; },
      /*need_step=*/true);
  if (prefix.empty() || back.empty()) return absl::InternalError("no cycle inside the EG set");
  Trace trace;
  trace.states = prefix;
  trace.states.insert(trace.states.end(), back.begin() + 1, back.end() - 1);
  trace.loop_start = static_cast<int>(prefix.size()) - 1;
  trace.claim_end = static_cast<int>(trace.states.size()) - 1;
  TS_RETURN_IF_ERROR(ValidateTrace(model, trace));
  return trace;
}

absl::Status Explainer::ContinueFairly(Trace* trace) const {
  trace->claim_end = static_cast<int>(trace->states.size()) - 1;
  if (checker_.has_fairness()) {
    TS_ASSIGN_OR_RETURN(Trace tail, Lasso(trace->states.back(), checker_.fair_states()));
    const int offset = static_cast<int>(trace->states.size()) - 1;
    trace->states.insert(trace->states.end(), tail.states.begin() + 1, tail.states.end());
    trace->loop_start = offset + tail.loop_start;
  }
  return ValidateTrace(checker_.model(), *trace);
}

const StateSet& Explainer::Aux(int node, int which) {
  auto it = aux_.find({node, which});
  if (it != aux_.end()) return it->second;
  const Formula::Node& n = formula_.nodes[node];
  StateSet set;
  if (n.op == Op::kAF) {
    set = checker_.Eg(Not(sat_[n.lhs]));
  } else if (n.op == Op::kAU && which == 0) {
    StateSet neither = Not(sat_[n.lhs]);
    neither.Subtract(sat_[n.rhs]);
    set = checker_.Eu(Not(sat_[n.rhs]), neither);
  } else {  // A[f U g], which == 1
    set = checker_.Eg(Not(sat_[n.rhs]));
  }
  return aux_.emplace(std::make_pair(node, which), std::move(set)).first->second;
}

absl::StatusOr<Explanation> Explainer::Explain(int node, uint32_t state) {
  Explanation e;
  TS_RETURN_IF_ERROR(Explain(node, state, &e));
  return e;
}

absl::Status Explainer::ExplainAlong(int node, const std::vector<uint32_t>& states, Explanation* out) {
  if (!formula_.HasTemporal(node)) return absl::OkStatus();
  std::vector<uint32_t> seen;
  for (uint32_t s : states) {
    if (budget_ <= 0) break;
    if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
    seen.push_back(s);
    out->children.emplace_back();
    TS_RETURN_IF_ERROR(Explain(node, s, &out->children.back()));
  }
  return absl::OkStatus();
}

absl::Status Explainer::Explain(int node, uint32_t s, Explanation* e) {
  --budget_;
  const Kripke& model = checker_.model();
  const Formula::Node& n = formula_.nodes[node];
  e->node = node;
  e->formula = formula_.ToString(node);
  e->state = s;
  e->holds = sat_[node].Contains(s);
  const bool holds = e->holds;
  const std::string name = model.StateName(s);
  const std::string path = checker_.has_fairness() ? "fair path" : "path";
  auto f_text = [&](int child) { return formula_.ToString(child); };
  auto child = [&](int c, uint32_t at) -> absl::Status {
    if (!formula_.HasTemporal(c) || budget_ <= 0) return absl::OkStatus();
    e->children.emplace_back();
    return Explain(c, at, &e->children.back());
  };
  auto claim = [&](const Trace& t) {
    return std::vector<uint32_t>(t.states.begin(), t.states.begin() + t.claim_end + 1);
  };
  switch (n.op) {
    case Op::kTrue:
    case Op::kFalse:
    case Op::kAtom:
      e->reason = absl::StrCat(e->formula, holds ? " holds in " : " does not hold in ", name);
      return absl::OkStatus();
    case Op::kNot:
      e->reason = absl::StrCat(f_text(n.lhs), holds ? " does not hold in " : " holds in ", name);
      return child(n.lhs, s);
    case Op::kAnd:
    case Op::kOr:
    case Op::kImplies:
    case Op::kIff: {
      const bool l = sat_[n.lhs].Contains(s), r = sat_[n.rhs].Contains(s);
      e->reason = absl::StrCat(f_text(n.lhs), l ? " holds" : " fails", " and ", f_text(n.rhs),
                               r ? " holds" : " fails", " in ", name);
      // Explain only the operands that decide the verdict.
      bool use_l = true, use_r = true;
      if (n.op == Op::kAnd && !holds) use_l = !l, use_r = l ? true : false;
      if (n.op == Op::kOr && holds) use_l = l, use_r = !l;
      if (n.op == Op::kImplies && holds) use_l = !l, use_r = l;
      if (use_l) TS_RETURN_IF_ERROR(child(n.lhs, s));
      if (use_r) TS_RETURN_IF_ERROR(child(n.rhs, s));
      return absl::OkStatus();
    }
    case Op::kEX:
    case Op::kAX: {
      const bool existential = n.op == Op::kEX;
      // EX holds / AX fails: a step to a (fair) successor where f holds / fails.
      if (existential == holds) {
        StateSet goal = existential ? sat_[n.lhs] : Not(sat_[n.lhs]);
        if (checker_.has_fairness()) goal.IntersectWith(checker_.fair_states());
        uint32_t t = kNone;
        for (const uint32_t* it = model.SuccBegin(s); it != model.SuccEnd(s) && t == kNone; ++it)
          if (goal.Contains(*it)) t = *it;
        if (t == kNone) return absl::InternalError("EX verdict without a successor");
        e->reason = absl::StrCat("successor ", model.StateName(t), " of ", name,
                                 existential ? " satisfies " : " violates ", f_text(n.lhs));
        e->trace.states = {s, t};
        TS_RETURN_IF_ERROR(ContinueFairly(&e->trace));
        return child(n.lhs, t);
      }
      e->reason = absl::StrCat(existential ? "no successor of " : "every successor of ", name,
                               checker_.has_fairness() ? " that starts a fair path" : "",
                               existential ? " satisfies " : " satisfies ", f_text(n.lhs));
      return absl::OkStatus();
    }
    case Op::kEF:
    case Op::kAG: {
      const bool existential = n.op == Op::kEF;
      if (existential == holds) {
        StateSet goal = existential ? sat_[n.lhs] : Not(sat_[n.lhs]);
        if (checker_.has_fairness()) goal.IntersectWith(checker_.fair_states());
        e->trace.states = ShortestPath(s, nullptr, goal);
        if (e->trace.states.empty()) return absl::InternalError("EF verdict without a path");
        const std::string end = model.StateName(e->trace.states.back());
        e->reason = absl::StrCat("a ", path, " from ", name, " reaches ", end, " where ",
                                 f_text(n.lhs), existential ? " holds" : " fails");
        TS_RETURN_IF_ERROR(ContinueFairly(&e->trace));
        return child(n.lhs, e->trace.states[e->trace.claim_end]);
      }
      e->reason = existential
                      ? absl::StrCat("no state reachable from ", name,
                                     checker_.has_fairness() ? " on a fair path" : "", " satisfies ",
                                     f_text(n.lhs))
                      : absl::StrCat(f_text(n.lhs), " holds in every state reachable from ", name,
                                     checker_.has_fairness() ? " on a fair path" : "");
      return absl::OkStatus();
    }
    case Op::kEU: {
      if (holds) {
        StateSet goal = sat_[n.rhs];
        if (checker_.has_fairness()) goal.IntersectWith(checker_.fair_states());
        e->trace.states = ShortestPath(s, &sat_[n.lhs], goal);
        if (e->trace.states.empty()) return absl::InternalError("EU verdict without a path");
        e->reason = absl::StrCat("a ", path, " from ", name, " keeps ", f_text(n.lhs), " until ",
                                 model.StateName(e->trace.states.back()), " where ", f_text(n.rhs),
                                 " holds");
        TS_RETURN_IF_ERROR(ContinueFairly(&e->trace));
        std::vector<uint32_t> before = claim(e->trace);
        before.pop_back();
        TS_RETURN_IF_ERROR(ExplainAlong(n.lhs, before, e));
        return child(n.rhs, e->trace.states[e->trace.claim_end]);
      }
      e->reason = absl::StrCat("no ", path, " from ", name, " keeps ", f_text(n.lhs), " until ",
                               f_text(n.rhs), " holds");
      return absl::OkStatus();
    }
    case Op::kAU: {
      if (!holds) {
        const StateSet not_g = Not(sat_[n.rhs]);
        if (Aux(node, 0).Contains(s)) {
          StateSet neither = Not(sat_[n.lhs]);
          neither.Subtract(sat_[n.rhs]);
          if (checker_.has_fairness()) neither.IntersectWith(checker_.fair_states());
          e->trace.states = ShortestPath(s, &not_g, neither);
          if (e->trace.states.empty()) return absl::InternalError("AU verdict without a path");
          e->reason = absl::StrCat("a ", path, " from ", name, " reaches ",
                                   model.StateName(e->trace.states.back()), " where neither ",
                                   f_text(n.lhs), " nor ", f_text(n.rhs), " holds, and ",
                                   f_text(n.rhs), " fails before");
          TS_RETURN_IF_ERROR(ContinueFairly(&e->trace));
          const uint32_t end = e->trace.states[e->trace.claim_end];
          TS_RETURN_IF_ERROR(ExplainAlong(n.rhs, claim(e->trace), e));
          return child(n.lhs, end);
        }
        TS_ASSIGN_OR_RETURN(e->trace, Lasso(s, Aux(node, 1)));
        e->reason = absl::StrCat("on a ", path, " from ", name, " (a lasso) ", f_text(n.rhs),
                                 " never holds");
        return ExplainAlong(n.rhs, e->trace.states, e);
      }
      e->reason = absl::StrCat("every ", path, " from ", name, " keeps ", f_text(n.lhs), " until ",
                               f_text(n.rhs), " holds");
      return absl::OkStatus();
    }
    case Op::kEG:
    case Op::kAF: {
      const bool existential = n.op == Op::kEG;
      if (existential == holds) {
        TS_ASSIGN_OR_RETURN(e->trace, Lasso(s, existential ? sat_[node] : Aux(node, 0)));
        e->reason = absl::StrCat("on a ", path, " from ", name, " (a lasso) ", f_text(n.lhs),
                                 existential ? " holds forever" : " never holds");
        return ExplainAlong(n.lhs, e->trace.states, e);
      }
      e->reason = existential ? absl::StrCat("every ", path, " from ", name, " reaches a state where ",
                                             f_text(n.lhs), " fails")
                              : absl::StrCat("every ", path, " from ", name, " reaches a state where ",
                                             f_text(n.lhs), " holds");
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

}  // namespace tracespec::ctl
