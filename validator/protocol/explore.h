// Class protocols explored from bytecode: the abstract transition graph the
// implementation allows, computed with the symbolic executor (validator/symex)
// instead of observed.
//
// The abstract state of an object is the values of its state fields (which
// fields qualify, and their values: fields.h). Initial states: each public
// constructor runs on a new object with free arguments; every abstract state
// one of its normal exits can leave the object in is initial (a constructor
// that throws creates no object). Then, for every reachable abstract state S
// and every public instance method m (declared or inherited from a class on
// the class path; synthetic and bridge methods excluded), m runs from an entry
// state in which
//   - the receiver has exactly the class, its state fields hold S's values;
//   - every other field of the receiver, every argument, everything reachable
//     from them and every non-final static field is free (any value of its
//     type: references may be null or alias) — except that a reference of an
//     enum type of the class path (an argument, or a field of the receiver)
//     is one of its constants or null, as in every Java execution;
// and each exit is solved for every abstract state it can leave the receiver
// in: the normal exit gives transitions S -> S' labelled `m`, the exceptional
// exit transitions S -> S' labelled `m!E` for each exception class E that can
// escape (the receiver keeps whatever the exit heap says). Post-states are
// enumerated with blocking clauses until the solver says there are no more.
//
// What the graph means: because non-state fields and arguments are free, a
// transition is in the graph iff SOME object in state S with SOME values of
// its other fields can take it — so the graph over-approximates what objects
// built by the constructors and moved by the methods can actually do (a
// transition may need values of other fields that no real call sequence
// produces), and never misses a transition the implementation allows, within
// the loop bound. Loops are unwound to `unwind` iterations, doubled while a
// deeper iteration is reachable, up to `max_unwind`; a call whose exploration
// was cut (bound still reached, a construct without a model, solver timeout)
// is listed in `incomplete`, and the graph may then miss transitions.
#ifndef TRACESPEC_VALIDATOR_PROTOCOL_EXPLORE_H_
#define TRACESPEC_VALIDATOR_PROTOCOL_EXPLORE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "validator/ctl/kripke.h"
#include "validator/protocol/model.h"

namespace tracespec::protocol {

struct ExploreOptions {
  std::string class_path;  // ':'-separated directories and jars
  std::string class_name;  // binary name, e.g. "loan.LoanApplication"
  std::vector<std::string> state_fields;
  // Explore only the public methods with these names (empty: all of them).
  std::vector<std::string> methods;
  int unwind = 2;       // first loop and recursion bound
  int max_unwind = 16;  // deepen up to this bound
  int max_array = 4;    // bound on input array lengths (see validator/README.md)
  // Integral state fields: at most this many abstract states in all, and at
  // most max_values post-states per call from one state, else the value set
  // is reported as not bounded.
  int max_states = 64;
  int max_values = 16;
  double timeout_seconds = 300;
};

struct ExploredProtocol {
  // Built with the self-loop deadlock policy.
  ctl::Kripke model;
  // The model in the text format of validator/ctl, with a header comment.
  std::string text;
  ProtocolGraph graph;
  // Call texts of the explored constructors and methods.
  std::vector<std::string> constructors, methods;
  // Calls whose exploration was cut: the graph may miss transitions there.
  std::vector<std::string> incomplete;
  // Facts worth knowing that are not transitions (constructors that throw).
  std::vector<std::string> notes;
  int executions = 0;    // symbolic executions
  int solver_calls = 0;
  double seconds = 0;
};

absl::StatusOr<ExploredProtocol> ExploreProtocol(const ExploreOptions& options);

// The value domain of each state field (fields.h), for `protocol mine`:
// booleans and enums have one; integral fields get an empty list.
absl::StatusOr<std::vector<std::vector<std::string>>> StateFieldDomains(const std::string& class_path,
                                                                        const std::string& class_name,
                                                                        const std::vector<std::string>& state_fields);

}  // namespace tracespec::protocol

#endif  // TRACESPEC_VALIDATOR_PROTOCOL_EXPLORE_H_
