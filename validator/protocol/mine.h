// Class protocols mined from observations: the abstract states of objects of
// one class (the values of named fields) and the method calls seen to move an
// object between them, as a Kripke structure for the CTL checker.
//
// Each observed call on a receiver of the class gives a transition from the
// receiver's abstract state before the call to the one after it, labelled
// with the method name (and "!Exception" when it threw). Constructors give the
// initial states; an object whose construction was not observed contributes
// the abstract state before its first observed call instead. Calls are linked
// per object (receiver id) within one test, in sequence order; when one call
// ends in a different abstract state than the next call on the same object
// starts in, the object changed outside the observed calls and the miner
// reports the gap (it adds no transition for it).
//
// Abstract state values: booleans, numbers and strings as written, null as
// `null`, enum constants by name (a reference to an object whose recorded
// fields include the string `name`). Other references and redacted values
// cannot be abstract state and are errors.
//
// The model (naming in model.h): one state per abstract state, named `f=v`
// (one field) or `f=v,g=w` (several, in the order given); with several
// fields, one proposition per field value (`state=APPROVED`,
// `approved=true`); initial states carry the observed constructor calls.
// When the fields' domains are known (MineOptions::domains, e.g. from the
// class file), values never observed become propositions that hold nowhere.
// States and transitions are sorted, so the output does not depend on input
// order.
#ifndef TRACESPEC_VALIDATOR_PROTOCOL_MINE_H_
#define TRACESPEC_VALIDATOR_PROTOCOL_MINE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracespec/v1/observation.pb.h"
#include "validator/ctl/kripke.h"
#include "validator/protocol/model.h"

namespace tracespec::protocol {

struct MineOptions {
  // Binary class name, e.g. "bank.Loan".
  std::string class_name;
  // Fields of the class whose values make up the abstract state.
  std::vector<std::string> state_fields;
  // Name of the observation source, for the model's header and messages.
  std::string source;
  // Optional, parallel to state_fields: every value each field can take
  // (text as in state names); see ProtocolGraph::domains.
  std::vector<std::vector<std::string>> domains;
};

struct MinedProtocol {
  // Built with the self-loop deadlock policy (states where no call was seen
  // get s -> s); `text` does not contain those loops.
  ctl::Kripke model;
  // The model in the text format of validator/ctl, with a header comment.
  std::string text;
  // The graph the model was built from (for comparisons and call rendering).
  ProtocolGraph graph;
  int calls = 0;          // observations that gave a transition
  int constructions = 0;  // constructor observations
  int objects = 0;
  int tests = 0;
  // Observations of the class that could not be used (receiver or a state
  // field not recorded), with the reason.
  std::vector<std::string> skipped;
  // Linking gaps: an object's state changed between two observed calls.
  std::vector<std::string> gaps;
};

absl::StatusOr<MinedProtocol> MineProtocol(const std::vector<v1::Observation>& observations,
                                           const MineOptions& options);

// Observations from a file (.pb or .jsonl), or from every .pb and .jsonl file
// directly inside a directory (in name order; X.jsonl is skipped when X.pb
// exists, as `tracespec observe` writes both).
absl::StatusOr<std::vector<v1::Observation>> ReadObservationsFrom(const std::string& path);

}  // namespace tracespec::protocol

#endif  // TRACESPEC_VALIDATOR_PROTOCOL_MINE_H_
