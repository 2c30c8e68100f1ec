// Comparing two protocol graphs of one class: what the implementation allows
// (explored from bytecode) against what the tests did (mined from
// observations), transition by transition. Both must use the same state
// fields, so states and labels are named alike (model.h).
#ifndef TRACESPEC_VALIDATOR_PROTOCOL_COMPARE_H_
#define TRACESPEC_VALIDATOR_PROTOCOL_COMPARE_H_

#include <string>
#include <vector>

#include "validator/protocol/model.h"

namespace tracespec::protocol {

struct ProtocolComparison {
  // Allowed by the implementation, never taken by an observed call. Split by
  // whether the method was observed at all: a method that never appears in the
  // observations was perhaps not recorded (observe it with --method).
  std::vector<Transition> untested;
  std::vector<Transition> untested_unobserved_method;
  std::vector<std::string> unobserved_methods;  // sorted
  // Observed but not explored: impossible unless the exploration was
  // incomplete, the class changed, or the observations are of other code.
  std::vector<Transition> unexplained;
  // States reachable in the implementation that no observed object was in.
  std::vector<std::string> unvisited_states;
  // Initial states (constructor results) the tests never created, and
  // observed initial states the constructors cannot produce.
  std::vector<std::string> untested_initial, unexplained_initial;
};

ProtocolComparison CompareProtocols(const ProtocolGraph& explored, const ProtocolGraph& mined);

// A transition as "from -[action]-> to".
std::string TransitionText(const Transition& t);

}  // namespace tracespec::protocol

#endif  // TRACESPEC_VALIDATOR_PROTOCOL_COMPARE_H_
