// Observations as a prompt shows them: one compact line per distinct
// behaviour, paths written as JML expressions, and a deterministic summary
// that fits a token budget when there are many.
//
// Line format:  o3 [AccountTest#deposit x2]: amount=5, this.balance=10 ->
//               returns normally; after: this.balance=15
// - before "->": parameters, then the receiver's recorded fields, before the
//   call; after "after:": only the recorded values that changed (or appeared,
//   e.g. a constructed object or a returned one under \result).
// - `<C>`: a non-null object of class C whose fields were not recorded;
//   `x==y`: x refers to the same object as y. Redacted fields are left out.
#ifndef TRACESPEC_AGENT_PROMPT_OBSERVATIONS_H_
#define TRACESPEC_AGENT_PROMPT_OBSERVATIONS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "agent/prompt/disclosure.h"
#include "tracespec/v1/observation.pb.h"

namespace tracespec::prompt {

// Estimated model tokens of `text`: one per four bytes, rounded up. Only used
// to budget; no tokenizer of any particular model is assumed.
int EstimateTokens(absl::string_view text);

// One observation, rendered, with the facts the summariser ranks it by.
struct RenderedObservation {
  // Everything after the label, e.g. "amount=5, this.balance=10 -> returns
  // normally; after: this.balance=15". Equal bodies are the same behaviour.
  std::string body;
  // The kind of outcome: "returns normally", "returns true", "returns null",
  // "returns a value", "returns an object", "throws java.lang.X".
  std::string outcome_key;
  // Numeric inputs and results by path (parameters, pre-state fields,
  // array lengths, \result), for boundary selection.
  std::vector<std::pair<std::string, double>> numbers;
  // Special inputs by path: "amount=0", "amount=MAX", "s=null", "a=[]", ...
  std::vector<std::string> specials;
};

// Whether the strings reached from `observation`'s arguments go by shape
// whatever the policy's literals say: its method's parameter names are
// unknown, so no deny pattern could apply to them (only ALL shows them).
bool ArgumentsByShape(const v1::Observation& observation);

// Renders `observation`. `param_names` names the arguments when the
// observation's own method reference has no names (else "arg0", ...).
// `disclosure` (null: every string as it is) decides which strings are shown
// by shape; the strings of the arguments of a method whose parameter names
// are unknown are shown by shape unless it discloses all strings.
RenderedObservation RenderObservation(const v1::Observation& observation,
                                      const std::vector<std::string>& param_names = {},
                                      StringDisclosure* disclosure = nullptr);

struct ObservationSummary {
  // One line per shown behaviour, in the order of first occurrence, then a
  // line describing what was omitted (if anything).
  std::string text;
  int total = 0;     // observations given
  int distinct = 0;  // distinct behaviours among them
  int shown = 0;     // distinct behaviours in `text`
};

// Renders `observations` (labels `label_prefix`1, 2, ...), merging equal
// behaviours. When the distinct lines exceed `token_budget` tokens, keeps in
// this order, as long as they fit: the first behaviour of each outcome kind,
// the smallest and largest value of each numeric path, the first behaviour
// with each special value (0, -1, 1, MIN, MAX, NaN, null, empty), then the
// rest spread evenly over the list; a final line counts the omitted ones by
// outcome and gives the value ranges of all of them. Deterministic.
ObservationSummary SummarizeObservations(const std::vector<v1::Observation>& observations,
                                         absl::string_view label_prefix, int token_budget,
                                         const std::vector<std::string>& param_names = {},
                                         StringDisclosure* disclosure = nullptr);

}  // namespace tracespec::prompt

#endif  // TRACESPEC_AGENT_PROMPT_OBSERVATIONS_H_
