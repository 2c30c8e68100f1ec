// Kripke structures: finitely many named states, atomic propositions that
// hold in sets of states, a transition relation and one or more initial
// states. Every state's name is also a proposition that holds exactly in that
// state. Transitions are stored twice in compressed sparse rows (forward and
// reverse), so a traversal touches two flat arrays and never allocates per
// state.
#ifndef TRACESPEC_VALIDATOR_CTL_KRIPKE_H_
#define TRACESPEC_VALIDATOR_CTL_KRIPKE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "validator/ctl/huge_array.h"
#include "validator/ctl/state_set.h"

namespace tracespec::ctl {

// What to do with states that have no successor. CTL is defined over total
// transition relations, so a deadlock is an error unless the user asks for
// the conventional repair (a self-loop, "the state persists").
enum class DeadlockPolicy { kError, kSelfLoop };

// Characters a state or proposition name may use without quotes, in model
// files and in formulas ("->" ends a name).
bool IsNameChar(char c);
// `name` as written in model files and formulas: unchanged when every
// character is a name character and it is not a CTL keyword, else quoted.
std::string QuoteName(absl::string_view name);

class Kripke {
 public:
  Kripke() = default;

  uint32_t num_states() const { return num_states_; }
  uint64_t num_transitions() const { return fwd_targets_.size(); }
  // Where the model came from (a file name), for messages.
  const std::string& source() const { return source_; }

  // The state's name; states of generated models without names are called
  // by their number.
  std::string StateName(uint32_t s) const;
  // Line of the model file that declared the state (0 when unknown).
  int StateLine(uint32_t s) const { return s < state_lines_.size() ? state_lines_[s] : 0; }
  std::optional<uint32_t> FindState(absl::string_view name) const;

  // Successors and predecessors, sorted ascending, without duplicates.
  const uint32_t* SuccBegin(uint32_t s) const { return fwd_targets_.data() + fwd_offsets_[s]; }
  const uint32_t* SuccEnd(uint32_t s) const { return fwd_targets_.data() + fwd_offsets_[s + 1]; }
  const uint32_t* PredBegin(uint32_t s) const { return rev_sources_.data() + rev_offsets_[s]; }
  const uint32_t* PredEnd(uint32_t s) const { return rev_sources_.data() + rev_offsets_[s + 1]; }
  uint32_t OutDegree(uint32_t s) const { return fwd_offsets_[s + 1] - fwd_offsets_[s]; }
  bool HasTransition(uint32_t from, uint32_t to) const;
  // Raw CSR arrays for tight loops: successors of s are
  // fwd_targets()[fwd_offsets()[s] .. fwd_offsets()[s+1]).
  const uint32_t* fwd_offsets() const { return fwd_offsets_.data(); }
  const uint32_t* fwd_targets() const { return fwd_targets_.data(); }
  const uint32_t* rev_offsets() const { return rev_offsets_.data(); }
  const uint32_t* rev_sources() const { return rev_sources_.data(); }

  // The action (transition label) of from -> to, or "" when it has none.
  // Several actions on one transition are joined with ", ".
  std::string Action(uint32_t from, uint32_t to) const;
  bool has_actions() const { return !edge_actions_.empty(); }

  // Labels (propositions other than state names), sorted by name.
  size_t num_labels() const { return label_names_.size(); }
  const std::string& label_name(size_t i) const { return label_names_[i]; }
  const StateSet& label_states(size_t i) const { return label_states_[i]; }
  // The states where proposition `name` holds: a label, or a state's name.
  // nullopt when the model knows no such proposition.
  std::optional<StateSet> Proposition(absl::string_view name) const;

  const std::vector<uint32_t>& initial_states() const { return initial_; }
  void set_initial_states(std::vector<uint32_t> states) { initial_ = std::move(states); }
  // The action that creates initial state `s` (e.g. the constructor call of a
  // class protocol), or "" when it has none. Several are joined with ", ".
  std::string InitialAction(uint32_t s) const;
  bool has_initial_actions() const { return !initial_actions_.empty(); }
  // States that had no successor and got a self-loop (DeadlockPolicy::kSelfLoop).
  const std::vector<uint32_t>& self_loops_added() const { return self_loops_added_; }

  // States reachable from the initial states (initial states included).
  StateSet Reachable() const;

  // Bytes held by the transition arrays and labels (for benchmarks).
  size_t MemoryBytes() const;

 private:
  friend class KripkeBuilder;

  std::string source_;
  uint32_t num_states_ = 0;
  std::vector<std::string> names_;  // empty for anonymous (generated) models
  std::unordered_map<std::string, uint32_t> name_index_;
  std::vector<int> state_lines_;
  HugeArray<uint32_t> fwd_offsets_, fwd_targets_, rev_offsets_, rev_sources_;
  std::vector<int32_t> edge_actions_;  // parallel to fwd_targets_, -1 = none
  std::vector<std::string> action_names_;
  std::vector<std::string> label_names_;
  std::vector<StateSet> label_states_;
  std::vector<uint32_t> initial_;
  std::map<uint32_t, std::string> initial_actions_;
  std::vector<uint32_t> self_loops_added_;
};

// Collects states, transitions and labels, then builds the immutable CSR
// form. Readers use it; so do generators and the protocol miner.
class KripkeBuilder {
 public:
  explicit KripkeBuilder(std::string source = "") : source_(std::move(source)) {}

  // A new named state; a second state of the same name is an error.
  absl::StatusOr<uint32_t> AddState(absl::string_view name, int line = 0);
  // `count` states named by their numbers (only for models without names).
  uint32_t AddAnonymousStates(uint32_t count);
  std::optional<uint32_t> FindState(absl::string_view name) const;
  uint32_t num_states() const { return num_states_; }
  const std::string& source() const { return source_; }

  // An action name for AddTransition (interned).
  int32_t InternAction(absl::string_view name);
  void AddTransition(uint32_t from, uint32_t to, int32_t action = -1);
  void ReserveTransitions(uint64_t n);
  // Proposition `prop` holds in `state`. A label named like a state is an
  // error (the state's name already is a proposition).
  absl::Status AddLabel(absl::string_view prop, uint32_t state, int line = 0);
  // Declares a proposition that may hold nowhere.
  absl::Status DeclareLabel(absl::string_view prop, int line = 0);
  // `state` is initial; `action`, when not empty, names what creates it.
  void AddInitial(uint32_t state, absl::string_view action = "");

  // Builds the structure. Deadlock states are an error (FailedPrecondition)
  // naming them and the line that declared the first under kError, and get a self-loop under
  // kSelfLoop. A model without initial states is an error.
  absl::StatusOr<Kripke> Build(DeadlockPolicy policy) &&;

 private:
  std::string source_;
  uint32_t num_states_ = 0;
  bool anonymous_ = false;
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint32_t> name_index_;
  std::vector<int> state_lines_;
  std::vector<uint32_t> from_, to_;
  std::vector<int32_t> action_;  // empty until the first action
  std::vector<std::string> action_names_;
  std::unordered_map<std::string, int32_t> action_index_;
  std::unordered_map<std::string, std::pair<int, std::vector<uint32_t>>> labels_;
  std::vector<uint32_t> initial_;
  std::map<uint32_t, std::vector<std::string>> initial_actions_;
};

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_KRIPKE_H_
