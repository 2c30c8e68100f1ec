// CheckFormulas and the text / JSON / DOT renderers of its report.
#include "validator/ctl/check.h"

#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "rapidjson/prettywriter.h"
#include "rapidjson/stringbuffer.h"
#include "validator/ctl/checker.h"
#include "validator/ctl/formula.h"
#include "validator/ctl/kripke_io.h"

namespace tracespec::ctl {

absl::StatusOr<CheckReport> CheckFormulas(const Kripke& model, const std::vector<std::string>& formulas,
                                          const CheckOptions& options) {
  std::vector<Formula> parsed, fairness;
  for (const std::string& text : formulas) {
    TS_ASSIGN_OR_RETURN(Formula f, ParseFormula(text));
    parsed.push_back(std::move(f));
  }
  for (const std::string& text : options.fairness) {
    TS_ASSIGN_OR_RETURN(Formula f, ParseFormula(text));
    fairness.push_back(std::move(f));
  }
  TS_ASSIGN_OR_RETURN(std::unique_ptr<Checker> checker, Checker::Create(model, fairness));
  for (const Formula& f : parsed) TS_RETURN_IF_ERROR(checker->Bind(f));

  CheckReport report;
  report.initial_states = model.initial_states();
  report.self_loops_added = model.self_loops_added();
  report.fairness = options.fairness;
  const StateSet reachable = model.Reachable();
  for (uint32_t s = 0; s < model.num_states(); ++s)
    if (!reachable.Contains(s)) report.unreachable.push_back(s);
  if (checker->has_fairness())
    for (uint32_t s : model.initial_states())
      if (!checker->fair_states().Contains(s)) report.initial_without_fair_path.push_back(s);

  for (size_t i = 0; i < parsed.size(); ++i) {
    const Formula& f = parsed[i];
    TS_ASSIGN_OR_RETURN(std::vector<StateSet> sat, checker->Label(f));
    FormulaResult result;
    result.text = formulas[i];
    result.canonical = f.ToString();
    for (uint32_t s : model.initial_states())
      if (!sat[f.root()].Contains(s)) result.failing_initial_states.push_back(s);
    result.holds = result.failing_initial_states.empty();
    report.all_hold = report.all_hold && result.holds;
    if (options.evidence) {
      Explainer explainer(*checker, f, sat, options.max_explanation_nodes);
      std::vector<uint32_t> where;
      if (result.holds) {
        for (uint32_t s : model.initial_states())
          if (static_cast<int>(where.size()) < options.max_initial_explanations) where.push_back(s);
      } else {
        where.push_back(result.failing_initial_states.front());
      }
      for (uint32_t s : where) {
        TS_ASSIGN_OR_RETURN(Explanation e, explainer.Explain(f.root(), s));
        result.evidence.push_back(std::move(e));
      }
    }
    report.results.push_back(std::move(result));
  }
  return report;
}

namespace {

std::string Names(const Kripke& model, const std::vector<uint32_t>& states, size_t limit = 20) {
  std::vector<std::string> names;
  for (size_t i = 0; i < states.size() && i < limit; ++i) names.push_back(model.StateName(states[i]));
  std::string out = absl::StrJoin(names, " ");
  if (states.size() > limit) absl::StrAppend(&out, " ... (", states.size() - limit, " more)");
  return out;
}

// "a -> b -[act]-> c", or "[create] a -> ..." when `initial_action` names
// what created the first state.
std::string PathText(const Kripke& model, const std::vector<uint32_t>& states,
                     const std::string& initial_action = "") {
  std::string out = initial_action.empty() ? "" : absl::StrCat("[", initial_action, "] ");
  for (size_t i = 0; i < states.size(); ++i) {
    if (i > 0) {
      const std::string action = model.Action(states[i - 1], states[i]);
      out += action.empty() ? " -> " : absl::StrCat(" -[", action, "]-> ");
    }
    out += model.StateName(states[i]);
  }
  return out;
}

std::vector<uint32_t> Prefix(const Trace& t) {
  return std::vector<uint32_t>(t.states.begin(), t.states.begin() + t.loop_start + 1);
}
std::vector<uint32_t> Cycle(const Trace& t) {
  std::vector<uint32_t> c(t.states.begin() + t.loop_start, t.states.end());
  c.push_back(t.states[t.loop_start]);
  return c;
}

void RenderExplanation(const Kripke& model, const Explanation& e, int depth, std::string* out) {
  const std::string pad(2 * depth, ' ');
  absl::StrAppend(out, pad, "[", e.formula, (e.holds ? " holds" : " fails"), " in ",
                  model.StateName(e.state), "] ", e.reason, "\n");
  const Trace& t = e.trace;
  // A top-level trace starts in an initial state: show what created it.
  const std::string created = !t.empty() && depth == 1 ? model.InitialAction(t.states[0]) : "";
  if (!t.empty()) {
    if (!t.is_lasso()) {
      absl::StrAppend(out, pad, "  path: ", PathText(model, t.states, created), "\n");
    } else {
      if (t.claim_end < static_cast<int>(t.states.size()) - 1)
        absl::StrAppend(out, pad, "  witness ends in ", model.StateName(t.states[t.claim_end]),
                        " (step ", t.claim_end, "); the rest continues it on a fair path\n");
      absl::StrAppend(out, pad, "  lasso prefix: ", PathText(model, Prefix(t), created), "\n", pad,
                      "  lasso cycle:  ", PathText(model, Cycle(t)), " (repeats forever)\n");
    }
  }
  for (const Explanation& c : e.children) RenderExplanation(model, c, depth + 1, out);
}

void VisitTraces(const Explanation& e, const std::function<void(const Trace&)>& f) {
  if (!e.trace.empty()) f(e.trace);
  for (const Explanation& c : e.children) VisitTraces(c, f);
}

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void WriteString(Writer& w, const std::string& s) { w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size())); }

void WriteStates(Writer& w, const Kripke& model, const std::vector<uint32_t>& states, size_t limit) {
  w.StartArray();
  for (size_t i = 0; i < states.size() && i < limit; ++i) WriteString(w, model.StateName(states[i]));
  w.EndArray();
}

void WriteExplanation(Writer& w, const Kripke& model, const Explanation& e, bool top) {
  w.StartObject();
  w.Key("formula");
  WriteString(w, e.formula);
  w.Key("state");
  WriteString(w, model.StateName(e.state));
  w.Key("holds");
  w.Bool(e.holds);
  w.Key("reason");
  WriteString(w, e.reason);
  const Trace& t = e.trace;
  if (!t.empty()) {
    w.Key("trace");
    w.StartObject();
    w.Key("states");
    WriteStates(w, model, t.states, t.states.size());
    if (top && !model.InitialAction(t.states[0]).empty()) {
      w.Key("initial_action");
      WriteString(w, model.InitialAction(t.states[0]));
    }
    if (model.has_actions()) {
      w.Key("actions");
      w.StartArray();
      for (size_t i = 0; i + 1 < t.states.size(); ++i) WriteString(w, model.Action(t.states[i], t.states[i + 1]));
      if (t.is_lasso()) WriteString(w, model.Action(t.states.back(), t.states[t.loop_start]));
      w.EndArray();
    }
    w.Key("claim_end");
    w.Int(t.claim_end);
    if (t.is_lasso()) {
      w.Key("loop_start");
      w.Int(t.loop_start);
      w.Key("prefix");
      WriteStates(w, model, Prefix(t), t.states.size() + 1);
      w.Key("cycle");
      WriteStates(w, model, Cycle(t), t.states.size() + 1);
    }
    w.EndObject();
  }
  if (!e.children.empty()) {
    w.Key("children");
    w.StartArray();
    for (const Explanation& c : e.children) WriteExplanation(w, model, c, /*top=*/false);
    w.EndArray();
  }
  w.EndObject();
}

}  // namespace

std::string RenderText(const Kripke& model, const CheckReport& report) {
  std::string out = absl::StrCat("model ", model.source(), ": ", model.num_states(), " states, ",
                                 model.num_transitions(), " transitions; initial: ",
                                 Names(model, report.initial_states), "\n");
  if (!report.unreachable.empty())
    absl::StrAppend(&out, "unreachable from the initial states (never part of a counterexample): ",
                    Names(model, report.unreachable), "\n");
  if (!report.self_loops_added.empty())
    absl::StrAppend(&out, "deadlock states given a self-loop: ", Names(model, report.self_loops_added), "\n");
  if (!report.fairness.empty())
    absl::StrAppend(&out, "fairness: only paths on which each of ", absl::StrJoin(report.fairness, ", "),
                    " holds infinitely often\n");
  if (!report.initial_without_fair_path.empty())
    absl::StrAppend(&out, "warning: no fair path starts in ", Names(model, report.initial_without_fair_path),
                    " (every A-formula holds there vacuously, every E-formula fails)\n");
  for (const FormulaResult& r : report.results) {
    absl::StrAppend(&out, "\n", r.canonical, ": ", r.holds ? "holds" : "FAILS");
    if (!r.holds) absl::StrAppend(&out, " in ", Names(model, r.failing_initial_states, 10));
    out += "\n";
    for (const Explanation& e : r.evidence) RenderExplanation(model, e, 1, &out);
  }
  absl::StrAppend(&out, "\n", report.all_hold ? "all formulas hold" : "some formulas fail", "\n");
  return out;
}

std::string RenderJson(const Kripke& model, const CheckReport& report) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.SetIndent(' ', 2);
  constexpr size_t kListLimit = 1000;
  w.StartObject();
  w.Key("model");
  w.StartObject();
  w.Key("source");
  WriteString(w, model.source());
  w.Key("states");
  w.Uint(model.num_states());
  w.Key("transitions");
  w.Uint64(model.num_transitions());
  w.Key("initial");
  WriteStates(w, model, report.initial_states, kListLimit);
  w.Key("unreachable_count");
  w.Uint64(report.unreachable.size());
  w.Key("unreachable");
  WriteStates(w, model, report.unreachable, kListLimit);
  w.Key("self_loops_added");
  WriteStates(w, model, report.self_loops_added, kListLimit);
  w.Key("fairness");
  w.StartArray();
  for (const std::string& f : report.fairness) WriteString(w, f);
  w.EndArray();
  w.Key("initial_without_fair_path");
  WriteStates(w, model, report.initial_without_fair_path, kListLimit);
  w.EndObject();
  w.Key("results");
  w.StartArray();
  for (const FormulaResult& r : report.results) {
    w.StartObject();
    w.Key("formula");
    WriteString(w, r.text);
    w.Key("parsed");
    WriteString(w, r.canonical);
    w.Key("holds");
    w.Bool(r.holds);
    w.Key("failing_initial_states");
    WriteStates(w, model, r.failing_initial_states, kListLimit);
    w.Key("evidence");
    w.StartArray();
    for (const Explanation& e : r.evidence) WriteExplanation(w, model, e, /*top=*/true);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("all_hold");
  w.Bool(report.all_hold);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::string RenderDot(const Kripke& model, const CheckReport& report) {
  DotView view;
  view.states = StateSet(model.num_states());
  std::vector<std::string> titles;
  for (size_t i = 0; i < report.results.size(); ++i) {
    const FormulaResult& r = report.results[i];
    titles.push_back(absl::StrCat("f", i + 1, ": ", r.canonical, r.holds ? " holds" : " FAILS"));
    for (const Explanation& e : r.evidence) {
      view.states.Insert(e.state);
      VisitTraces(e, [&](const Trace& t) {
        for (size_t k = 0; k < t.states.size(); ++k) {
          view.states.Insert(t.states[k]);
          if (k + 1 < t.states.size())
            view.highlight.emplace_back(t.states[k], t.states[k + 1], absl::StrCat("f", i + 1, ".", k + 1));
        }
        if (t.is_lasso())
          view.highlight.emplace_back(t.states.back(), t.states[t.loop_start],
                                      absl::StrCat("f", i + 1, ".", t.states.size(), " loop"));
      });
    }
  }
  for (uint32_t s : report.initial_states) view.states.Insert(s);
  // The neighbourhood: direct successors of the states on the evidence.
  StateSet core = view.states;
  core.ForEach([&](uint32_t s) {
    for (const uint32_t* t = model.SuccBegin(s); t != model.SuccEnd(s); ++t) view.states.Insert(*t);
  });
  view.title = absl::StrJoin(titles, "\n");
  return ToDot(model, view);
}

}  // namespace tracespec::ctl
