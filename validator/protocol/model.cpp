// Protocol graphs as Kripke models, and traces as call sequences; see model.h.
#include "validator/protocol/model.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/status.h"
#include "validator/classfile/descriptors.h"

namespace tracespec::protocol {

namespace {

std::string SimpleName(absl::string_view binary_name) {
  const size_t dot = binary_name.rfind('.');
  return std::string(dot == absl::string_view::npos ? binary_name : binary_name.substr(dot + 1));
}

// The call text of one action label ("lend!IllegalStateException").
std::string ActionAsCall(const std::string& action, const std::map<std::string, std::string>& calls) {
  if (action.empty()) return "(no call: the state has no successor and keeps itself)";
  // Merged labels ("getState, submit!IllegalStateException"): any one will do.
  const std::string first = action.substr(0, action.find(", "));
  const size_t bang = first.find('!');
  const std::string method = first.substr(0, bang);
  auto it = calls.find(method);
  std::string call = it != calls.end() ? it->second : absl::StrCat(method, "(...)");
  if (bang != std::string::npos) absl::StrAppend(&call, " throws ", first.substr(bang + 1));
  return call;
}

std::vector<std::string> Parts(const std::vector<std::string>& fields, const std::vector<std::string>& values) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < fields.size() && i < values.size(); ++i) parts.push_back(absl::StrCat(fields[i], "=", values[i]));
  return parts;
}

}  // namespace

std::string ProtocolGraph::NameOf(const std::vector<std::string>& values) const {
  return absl::StrJoin(Parts(state_fields, values), ",");
}

std::string ProtocolGraph::AddState(const std::vector<std::string>& values) {
  std::vector<std::string> parts = Parts(state_fields, values);
  std::string name = absl::StrJoin(parts, ",");
  states.emplace(name, std::move(parts));
  return name;
}

std::string ExceptionalAction(absl::string_view method, absl::string_view exception) {
  return absl::StrCat(method, "!", SimpleName(exception));
}

std::string CallText(absl::string_view class_name, absl::string_view name, absl::string_view descriptor) {
  std::vector<std::string> params;
  if (auto d = classfile::ParseMethodDescriptor(descriptor); d.ok()) {
    for (const std::string& p : d->params) params.push_back(SimpleName(classfile::DescriptorToJava(p)));
  } else {
    params.push_back("...");
  }
  const std::string args = absl::StrCat("(", absl::StrJoin(params, ","), ")");
  if (name == "<init>") return absl::StrCat("new ", SimpleName(class_name), args);
  return absl::StrCat(name, args);
}

absl::StatusOr<ctl::Kripke> BuildModel(const ProtocolGraph& graph, const std::string& source) {
  ctl::KripkeBuilder builder(source);
  for (const auto& [name, parts] : graph.states) TS_RETURN_IF_ERROR(builder.AddState(name).status());
  for (const auto& [state, constructors] : graph.initial) {
    std::optional<uint32_t> s = builder.FindState(state);
    if (!s) return absl::InternalError(absl::StrCat("initial state ", state, " is not a state"));
    if (constructors.empty()) builder.AddInitial(*s);
    for (const std::string& c : constructors) builder.AddInitial(*s, c);
  }
  const bool several = graph.state_fields.size() > 1;
  std::set<std::string> used;
  for (const auto& [name, parts] : graph.states) {
    for (const std::string& part : parts) {
      used.insert(part);
      if (several) TS_RETURN_IF_ERROR(builder.AddLabel(part, *builder.FindState(name)));
    }
  }
  for (size_t f = 0; f < graph.domains.size() && f < graph.state_fields.size(); ++f) {
    for (const std::string& value : graph.domains[f]) {
      const std::string part = absl::StrCat(graph.state_fields[f], "=", value);
      if (!used.count(part)) TS_RETURN_IF_ERROR(builder.DeclareLabel(part));
    }
  }
  for (const Transition& t : graph.transitions) {
    std::optional<uint32_t> from = builder.FindState(t.from), to = builder.FindState(t.to);
    if (!from || !to) return absl::InternalError(absl::StrCat("transition between unknown states ", t.from, " -> ", t.to));
    builder.AddTransition(*from, *to, builder.InternAction(t.action));
  }
  return std::move(builder).Build(ctl::DeadlockPolicy::kSelfLoop);
}

std::string TraceAsCalls(const ctl::Kripke& model, const ctl::Trace& trace,
                         const std::map<std::string, std::string>& calls) {
  if (trace.empty()) return "";
  std::vector<std::string> steps;
  const std::string created = model.InitialAction(trace.states[0]);
  if (!created.empty()) steps.push_back(created.substr(0, created.find(", ")));
  const size_t n = trace.states.size();
  const size_t prefix_end = trace.is_lasso() ? static_cast<size_t>(trace.loop_start) : n - 1;
  for (size_t i = 0; i < prefix_end; ++i)
    steps.push_back(ActionAsCall(model.Action(trace.states[i], trace.states[i + 1]), calls));
  std::string out = absl::StrJoin(steps, " ; ");
  if (trace.is_lasso()) {
    std::vector<std::string> cycle;
    for (size_t i = trace.loop_start; i < n; ++i) {
      const uint32_t next = i + 1 < n ? trace.states[i + 1] : trace.states[trace.loop_start];
      cycle.push_back(ActionAsCall(model.Action(trace.states[i], next), calls));
    }
    absl::StrAppend(&out, out.empty() ? "" : " ; ", "{ ", absl::StrJoin(cycle, " ; "), " } repeated forever");
  }
  return out;
}

}  // namespace tracespec::protocol
