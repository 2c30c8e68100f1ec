// The abstract transition graph of a class protocol, shared by the miner
// (observations) and the explorer (bytecode), and its Kripke model: both
// name states, propositions and actions the same way, so one formula checks
// either model and their transitions can be compared one by one.
//
// Naming: an abstract state is the list of `field=value` parts, one per state
// field in the order given, joined with "," (`state=APPROVED` or
// `state=APPROVED,approved=true`). Every state's name is a proposition; with
// several fields each part is a proposition too (`approved=true`). Values of
// a field's known domain that no state has are declared as propositions that
// hold nowhere, so `AG !state=LENT_WITHOUT_APPROVAL` is a valid formula even
// when that value never occurs. Transitions are labelled with the method name,
// `m!Exception` (simple class name) when the call threw; initial states carry
// the constructor calls that create them (`new Loan(String,int)`).
#ifndef TRACESPEC_VALIDATOR_PROTOCOL_MODEL_H_
#define TRACESPEC_VALIDATOR_PROTOCOL_MODEL_H_

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "validator/ctl/evidence.h"
#include "validator/ctl/kripke.h"

namespace tracespec::protocol {

struct Transition {
  std::string from, to, action;
  bool operator<(const Transition& o) const {
    return std::tie(from, to, action) < std::tie(o.from, o.to, o.action);
  }
  bool operator==(const Transition& o) const {
    return from == o.from && to == o.to && action == o.action;
  }
};

struct ProtocolGraph {
  std::vector<std::string> state_fields;
  // State name -> its `field=value` parts (one per state field).
  std::map<std::string, std::vector<std::string>> states;
  // Initial state -> the constructor calls that create it.
  std::map<std::string, std::set<std::string>> initial;
  std::set<Transition> transitions;
  // Per state field (parallel to state_fields): every value it can take, when
  // known (empty when not); values without a state become propositions that
  // hold nowhere.
  std::vector<std::vector<std::string>> domains;
  // Action label -> how to show it as a call ("lend" -> "lend(int)").
  std::map<std::string, std::string> calls;

  // The name of the state whose fields have `values` (one per field, as
  // text), e.g. "state=APPROVED,approved=true".
  std::string NameOf(const std::vector<std::string>& values) const;
  // Adds that state and returns its name.
  std::string AddState(const std::vector<std::string>& values);
};

// The label of a call that threw `exception` (a binary class name):
// "lend!IllegalArgumentException".
std::string ExceptionalAction(absl::string_view method, absl::string_view exception);

// How a call of `name` with JVM descriptor `descriptor` is shown: simple type
// names, e.g. "lend(int)"; for constructors (`<init>`) "new Loan(String,int)"
// with `class_name` the binary class name.
std::string CallText(absl::string_view class_name, absl::string_view name, absl::string_view descriptor);

// The Kripke model of `graph`, built with the self-loop deadlock policy (a
// state where no call was seen, or none is possible, keeps its state).
absl::StatusOr<ctl::Kripke> BuildModel(const ProtocolGraph& graph, const std::string& source);

// A trace of a protocol model as calls: "new Loan(String,int) ; submit() ;
// lend(int)"; a lasso's cycle is shown once as "{ review() ; sendBack() }
// repeated forever". The creating call is shown when the trace starts in an
// initial state.
std::string TraceAsCalls(const ctl::Kripke& model, const ctl::Trace& trace,
                         const std::map<std::string, std::string>& calls);

}  // namespace tracespec::protocol

#endif  // TRACESPEC_VALIDATOR_PROTOCOL_MODEL_H_
