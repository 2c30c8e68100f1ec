// Protocol checks and exploration reports; see report.h.
#include "validator/protocol/report.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "rapidjson/prettywriter.h"
#include "rapidjson/stringbuffer.h"

namespace tracespec::protocol {

absl::StatusOr<ProtocolCheck> CheckProtocol(const ctl::Kripke& model, const ProtocolGraph& graph,
                                            const std::vector<std::string>& formulas,
                                            const std::vector<std::string>& fairness) {
  ProtocolCheck check;
  ctl::CheckOptions options;
  options.fairness = fairness;
  TS_ASSIGN_OR_RETURN(check.report, ctl::CheckFormulas(model, formulas, options));
  for (const ctl::FormulaResult& r : check.report.results) {
    std::string calls;
    for (const ctl::Explanation& e : r.evidence) {
      if (e.trace.empty()) continue;
      calls = TraceAsCalls(model, e.trace, graph.calls);
      break;
    }
    check.calls.push_back(std::move(calls));
  }
  return check;
}

std::string RenderCheckText(const ctl::Kripke& model, const ProtocolCheck& check) {
  std::string out = ctl::RenderText(model, check.report);
  bool any = false;
  for (size_t i = 0; i < check.calls.size(); ++i) {
    if (check.calls[i].empty()) continue;
    if (!any) out += "\nAs calls on one object:\n";
    any = true;
    const ctl::FormulaResult& r = check.report.results[i];
    absl::StrAppend(&out, "  ", r.canonical, (r.holds ? " (holds, witness): " : " (FAILS, counterexample): "),
                    check.calls[i], "\n");
  }
  return out;
}

namespace {

std::string Lines(const std::vector<std::string>& items, const std::string& pad) {
  std::string out;
  for (const std::string& s : items) absl::StrAppend(&out, pad, s, "\n");
  return out;
}

std::vector<std::string> TransitionTexts(const std::vector<Transition>& ts) {
  std::vector<std::string> out;
  for (const Transition& t : ts) out.push_back(TransitionText(t));
  return out;
}

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void String(Writer& w, const std::string& s) { w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size())); }

void Strings(Writer& w, const char* key, const std::vector<std::string>& items) {
  w.Key(key);
  w.StartArray();
  for (const std::string& s : items) String(w, s);
  w.EndArray();
}

// Transitions as {from, to, action}, with "tested" when `mined` is given.
template <typename Container>
void Transitions(Writer& w, const char* key, const Container& ts, const ProtocolGraph* mined = nullptr) {
  w.Key(key);
  w.StartArray();
  for (const Transition& t : ts) {
    w.StartObject();
    w.Key("from");
    String(w, t.from);
    w.Key("to");
    String(w, t.to);
    w.Key("action");
    String(w, t.action);
    if (mined) {
      w.Key("tested");
      w.Bool(mined->transitions.count(t) > 0);
    }
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

std::string RenderExploreText(const ExploreReport& report) {
  const ExploredProtocol& e = *report.explored;
  const ProtocolGraph& g = e.graph;
  std::string out = absl::StrCat(e.model.source(), ": ", g.states.size(), " abstract states (",
                                 absl::StrJoin(g.state_fields, ", "), ") reachable from ", e.constructors.size(),
                                 " constructor(s) by ", e.methods.size(), " public method(s); ", g.transitions.size(),
                                 " transitions; ", e.executions, " symbolic executions, ", e.solver_calls,
                                 " solver calls, ", absl::StrFormat("%.1f", e.seconds), " s\n");
  for (const auto& [state, constructors] : g.initial)
    absl::StrAppend(&out, "initial: ", state, " (", absl::StrJoin(constructors, ", "), ")\n");
  for (const std::string& n : e.notes) absl::StrAppend(&out, "note: ", n, "\n");
  if (!e.incomplete.empty())
    absl::StrAppend(&out, "INCOMPLETE: the exploration of these calls was cut; transitions may be missing:\n",
                    Lines(e.incomplete, "  "));
  const ProtocolComparison* c = report.comparison;
  absl::StrAppend(&out, "transitions the implementation allows (other fields, arguments and statics free): ",
                  g.transitions.size(), "\n");
  if (!c) {
    for (const Transition& t : g.transitions) absl::StrAppend(&out, "  ", TransitionText(t), "\n");
  } else {
    const MinedProtocol& m = *report.mined;
    std::vector<Transition> tested, changing, keeping;
    for (const Transition& t : g.transitions) {
      if (m.graph.transitions.count(t)) tested.push_back(t);
    }
    for (const std::vector<Transition>* list : {&c->untested, &c->untested_unobserved_method})
      for (const Transition& t : *list) (t.from == t.to ? keeping : changing).push_back(t);
    std::sort(changing.begin(), changing.end());
    std::sort(keeping.begin(), keeping.end());
    absl::StrAppend(&out, "compared with the observations in ", report.observations, " (", m.calls, " calls on ",
                    m.objects, " objects in ", m.tests, " tests):\n");
    absl::StrAppend(&out, "  exercised by the tests: ", tested.size(), "\n", Lines(TransitionTexts(tested), "    "));
    absl::StrAppend(&out, "  never exercised, changing the state: ", changing.size(), "\n",
                    Lines(TransitionTexts(changing), "    "));
    absl::StrAppend(&out, "  never exercised, keeping the state: ", keeping.size(), "\n",
                    Lines(TransitionTexts(keeping), "    "));
    if (!c->unobserved_methods.empty())
      absl::StrAppend(&out, "  methods never observed (perhaps not recorded; ", c->untested_unobserved_method.size(),
                      " of the transitions above): ", absl::StrJoin(c->unobserved_methods, ", "), "\n");
    if (!c->unvisited_states.empty())
      absl::StrAppend(&out, "  reachable states no tested object was in: ", absl::StrJoin(c->unvisited_states, " "),
                      "\n");
    if (!c->untested_initial.empty())
      absl::StrAppend(&out, "  initial states the tests never created: ", absl::StrJoin(c->untested_initial, " "),
                      "\n");
    if (!c->unexplained.empty() || !c->unexplained_initial.empty()) {
      absl::StrAppend(&out, "  observed but not explored (the exploration is incomplete, or the observations are "
                            "of other code):\n",
                      Lines(TransitionTexts(c->unexplained), "    "));
      if (!c->unexplained_initial.empty())
        absl::StrAppend(&out, "    initial: ", absl::StrJoin(c->unexplained_initial, " "), "\n");
    } else {
      out += "  every observed transition is explored\n";
    }
  }
  if (report.check) absl::StrAppend(&out, "\n", RenderCheckText(e.model, *report.check));
  return out;
}

std::string RenderExploreJson(const ExploreReport& report) {
  const ExploredProtocol& e = *report.explored;
  const ProtocolGraph& g = e.graph;
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("class");
  String(w, e.model.source());
  Strings(w, "state_fields", g.state_fields);
  std::vector<std::string> states;
  for (const auto& [name, parts] : g.states) states.push_back(name);
  Strings(w, "states", states);
  w.Key("initial");
  w.StartArray();
  for (const auto& [state, constructors] : g.initial) {
    w.StartObject();
    w.Key("state");
    String(w, state);
    Strings(w, "constructors", std::vector<std::string>(constructors.begin(), constructors.end()));
    w.EndObject();
  }
  w.EndArray();
  Strings(w, "constructors", e.constructors);
  Strings(w, "methods", e.methods);
  Transitions(w, "transitions", g.transitions, report.mined ? &report.mined->graph : nullptr);
  Strings(w, "incomplete", e.incomplete);
  w.Key("complete");
  w.Bool(e.incomplete.empty());
  Strings(w, "notes", e.notes);
  w.Key("executions");
  w.Int(e.executions);
  w.Key("solver_calls");
  w.Int(e.solver_calls);
  w.Key("seconds");
  w.Double(e.seconds);
  if (const ProtocolComparison* c = report.comparison) {
    w.Key("comparison");
    w.StartObject();
    w.Key("observations");
    String(w, report.observations);
    w.Key("observed_calls");
    w.Int(report.mined->calls);
    Transitions(w, "untested", c->untested);
    Transitions(w, "untested_unobserved_method", c->untested_unobserved_method);
    Strings(w, "unobserved_methods", c->unobserved_methods);
    Transitions(w, "unexplained", c->unexplained);
    Strings(w, "unvisited_states", c->unvisited_states);
    Strings(w, "untested_initial", c->untested_initial);
    Strings(w, "unexplained_initial", c->unexplained_initial);
    w.EndObject();
  }
  if (report.check) {
    w.Key("check");
    const std::string json = ctl::RenderJson(e.model, report.check->report);
    w.RawValue(json.c_str(), json.size() - 1, rapidjson::kObjectType);  // without the final newline
    Strings(w, "calls", report.check->calls);
  }
  w.Key("model");
  String(w, e.text);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace tracespec::protocol
