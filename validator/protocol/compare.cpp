// Explored against mined protocols; see compare.h.
#include "validator/protocol/compare.h"

#include <set>

#include "absl/strings/str_cat.h"

namespace tracespec::protocol {

namespace {

std::string MethodOf(const std::string& action) { return action.substr(0, action.find('!')); }

}  // namespace

std::string TransitionText(const Transition& t) { return absl::StrCat(t.from, " -[", t.action, "]-> ", t.to); }

ProtocolComparison CompareProtocols(const ProtocolGraph& explored, const ProtocolGraph& mined) {
  ProtocolComparison c;
  std::set<std::string> observed_methods, explored_methods;
  for (const Transition& t : mined.transitions) observed_methods.insert(MethodOf(t.action));
  for (const Transition& t : explored.transitions) {
    explored_methods.insert(MethodOf(t.action));
    if (mined.transitions.count(t)) continue;
    (observed_methods.count(MethodOf(t.action)) ? c.untested : c.untested_unobserved_method).push_back(t);
  }
  for (const std::string& m : explored_methods)
    if (!observed_methods.count(m)) c.unobserved_methods.push_back(m);
  for (const Transition& t : mined.transitions)
    if (!explored.transitions.count(t)) c.unexplained.push_back(t);
  for (const auto& [name, parts] : explored.states)
    if (!mined.states.count(name)) c.unvisited_states.push_back(name);
  for (const auto& [name, constructors] : explored.initial)
    if (!mined.initial.count(name)) c.untested_initial.push_back(name);
  // Objects whose construction was not observed start somewhere: only
  // observed constructions must match a constructor's result.
  for (const auto& [name, constructors] : mined.initial)
    if (!constructors.empty() && !explored.initial.count(name)) c.unexplained_initial.push_back(name);
  return c;
}

}  // namespace tracespec::protocol
