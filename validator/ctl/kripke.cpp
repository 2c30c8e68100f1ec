// Kripke structures and their builder; see kripke.h.
#include "validator/ctl/kripke.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status.h"
#include "validator/ctl/closure.h"

namespace tracespec::ctl {

namespace {

bool IsKeyword(absl::string_view s) {
  static const char* const kKeywords[] = {"true", "false", "EX", "AX", "EF", "AF",
                                          "EG",   "AG",    "E",  "A",  "U"};
  for (const char* k : kKeywords)
    if (s == k) return true;
  return false;
}

}  // namespace

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '.' || c == '$' || c == '=' || c == '+' || c == '/' || c == ',' ||
         c == '%' || c == '@' || c == '-';
}

std::string QuoteName(absl::string_view name) {
  bool plain = !name.empty() && !IsKeyword(name);
  for (size_t i = 0; plain && i < name.size(); ++i) {
    if (!IsNameChar(name[i])) plain = false;
    if (name[i] == '-' && i + 1 < name.size() && name[i + 1] == '>') plain = false;
  }
  if (plain) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

std::string Kripke::StateName(uint32_t s) const {
  return names_.empty() ? absl::StrCat(s) : names_[s];
}

std::optional<uint32_t> Kripke::FindState(absl::string_view name) const {
  if (names_.empty()) {
    uint32_t v = 0;
    if (name.empty() || name.size() > 10) return std::nullopt;
    for (char c : name) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<uint32_t>(c - '0');
    }
    if (v >= num_states_) return std::nullopt;
    return v;
  }
  auto it = name_index_.find(std::string(name));
  if (it == name_index_.end()) return std::nullopt;
  return it->second;
}

bool Kripke::HasTransition(uint32_t from, uint32_t to) const {
  return std::binary_search(SuccBegin(from), SuccEnd(from), to);
}

std::string Kripke::Action(uint32_t from, uint32_t to) const {
  if (edge_actions_.empty()) return "";
  const uint32_t* it = std::lower_bound(SuccBegin(from), SuccEnd(from), to);
  if (it == SuccEnd(from) || *it != to) return "";
  const int32_t a = edge_actions_[it - fwd_targets_.data()];
  return a < 0 ? "" : action_names_[a];
}

std::optional<StateSet> Kripke::Proposition(absl::string_view name) const {
  auto it = std::lower_bound(label_names_.begin(), label_names_.end(), name,
                             [](const std::string& a, absl::string_view b) { return a < b; });
  if (it != label_names_.end() && *it == name) return label_states_[it - label_names_.begin()];
  if (std::optional<uint32_t> s = FindState(name)) {
    StateSet set(num_states_);
    set.Insert(*s);
    return set;
  }
  return std::nullopt;
}

StateSet Kripke::Reachable() const {
  StateSet seen(num_states_);
  for (uint32_t s : initial_) seen.Insert(s);
  Close(*this, Direction::kForward, nullptr, &seen);
  return seen;
}

size_t Kripke::MemoryBytes() const {
  size_t bytes = (fwd_offsets_.capacity() + fwd_targets_.capacity() + rev_offsets_.capacity() +
                  rev_sources_.capacity()) *
                     sizeof(uint32_t) +
                 edge_actions_.capacity() * sizeof(int32_t);
  for (const StateSet& s : label_states_) bytes += s.MemoryBytes();
  return bytes;
}

absl::StatusOr<uint32_t> KripkeBuilder::AddState(absl::string_view name, int line) {
  if (anonymous_) return absl::InternalError("named state added to an anonymous model");
  std::string key(name);
  auto [it, inserted] = name_index_.emplace(key, num_states_);
  if (!inserted) {
    const int first = state_lines_[it->second];
    return InputError(source_, line, 0,
                      absl::StrCat("state '", name, "' declared twice",
                                   first > 0 ? absl::StrCat(" (first on line ", first, ")") : ""));
  }
  names_.push_back(std::move(key));
  state_lines_.push_back(line);
  return num_states_++;
}

uint32_t KripkeBuilder::AddAnonymousStates(uint32_t count) {
  anonymous_ = true;
  const uint32_t first = num_states_;
  num_states_ += count;
  return first;
}

std::optional<uint32_t> KripkeBuilder::FindState(absl::string_view name) const {
  auto it = name_index_.find(std::string(name));
  if (it == name_index_.end()) return std::nullopt;
  return it->second;
}

int32_t KripkeBuilder::InternAction(absl::string_view name) {
  auto [it, inserted] =
      action_index_.emplace(std::string(name), static_cast<int32_t>(action_names_.size()));
  if (inserted) action_names_.emplace_back(name);
  return it->second;
}

void KripkeBuilder::AddTransition(uint32_t from, uint32_t to, int32_t action) {
  if (action >= 0 && action_.size() < from_.size()) action_.resize(from_.size(), -1);
  from_.push_back(from);
  to_.push_back(to);
  if (action >= 0 || !action_.empty()) action_.push_back(action);
}

void KripkeBuilder::ReserveTransitions(uint64_t n) {
  from_.reserve(n);
  to_.reserve(n);
}

absl::Status KripkeBuilder::DeclareLabel(absl::string_view prop, int line) {
  if (FindState(prop))
    return InputError(source_, line, 0,
                      absl::StrCat("proposition '", prop,
                                   "' is also a state's name (a state's name already holds "
                                   "exactly in that state)"));
  labels_.emplace(std::string(prop), std::make_pair(line, std::vector<uint32_t>()));
  return absl::OkStatus();
}

absl::Status KripkeBuilder::AddLabel(absl::string_view prop, uint32_t state, int line) {
  TS_RETURN_IF_ERROR(DeclareLabel(prop, line));
  labels_[std::string(prop)].second.push_back(state);
  return absl::OkStatus();
}

void KripkeBuilder::AddInitial(uint32_t state, absl::string_view action) {
  initial_.push_back(state);
  if (!action.empty()) initial_actions_[state].emplace_back(action);
}

std::string Kripke::InitialAction(uint32_t s) const {
  auto it = initial_actions_.find(s);
  return it == initial_actions_.end() ? "" : it->second;
}

absl::StatusOr<Kripke> KripkeBuilder::Build(DeadlockPolicy policy) && {
  Kripke k;
  k.source_ = source_;
  const uint32_t n = num_states_;
  k.num_states_ = n;
  if (n == 0) return InputError(source_, 0, 0, "the model has no states");
  if (from_.size() >= (uint64_t{1} << 32) - n)
    return InputError(source_, 0, 0, "too many transitions (at most 2^32 - 1 - states)");
  if (initial_.empty()) return InputError(source_, 0, 0, "the model has no initial state");
  for (const auto& [name, entry] : labels_)
    if (FindState(name))
      return InputError(source_, entry.first, 0,
                        absl::StrCat("proposition '", name, "' is also a state's name"));

  // Out-degrees, deadlocks.
  HugeArray<uint32_t> offsets(n + 1, 0);
  for (uint32_t f : from_) ++offsets[f + 1];
  std::vector<uint32_t> dead;
  for (uint32_t s = 0; s < n; ++s)
    if (offsets[s + 1] == 0) dead.push_back(s);
  if (!dead.empty()) {
    if (policy == DeadlockPolicy::kError) {
      std::vector<std::string> names;
      for (size_t i = 0; i < dead.size() && i < 10; ++i)
        names.push_back(absl::StrCat("'", anonymous_ ? absl::StrCat(dead[i]) : names_[dead[i]], "'"));
      const int line = anonymous_ ? 0 : state_lines_[dead[0]];
      return absl::FailedPreconditionError(Located(
          source_, line, 0,
          absl::StrCat(dead.size() == 1 ? "state " : "states ", absl::StrJoin(names, ", "),
                       dead.size() > 10 ? absl::StrCat(" and ", dead.size() - 10, " more") : "",
                       dead.size() == 1 ? " has" : " have",
                       " no successor (deadlock); CTL needs every state to have one: add a "
                       "transition, or choose the self-loop deadlock policy")));
    }
    for (uint32_t s : dead) {
      from_.push_back(s);
      to_.push_back(s);
      if (!action_.empty()) action_.push_back(-1);
      offsets[s + 1] = 1;
    }
    k.self_loops_added_ = dead;
  }
  for (uint32_t s = 0; s < n; ++s) offsets[s + 1] += offsets[s];

  // Counting sort by source.
  const bool with_actions = !action_.empty();
  if (with_actions) action_.resize(from_.size(), -1);
  HugeArray<uint32_t> targets(from_.size());
  std::vector<int32_t> actions(with_actions ? from_.size() : 0);
  {
    std::vector<uint32_t> pos(offsets.begin(), offsets.end() - 1);
    for (size_t i = 0; i < from_.size(); ++i) {
      const uint32_t p = pos[from_[i]]++;
      targets[p] = to_[i];
      if (with_actions) actions[p] = action_[i];
    }
  }
  std::vector<uint32_t>().swap(from_);
  std::vector<uint32_t>().swap(to_);
  std::vector<int32_t>().swap(action_);

  // Sort each row and drop duplicate transitions (merging their actions).
  uint32_t write = 0;
  std::vector<std::pair<uint32_t, int32_t>> row;
  for (uint32_t s = 0; s < n; ++s) {
    const uint32_t begin = offsets[s], end = offsets[s + 1];
    offsets[s] = write;
    if (!with_actions) {
      std::sort(targets.begin() + begin, targets.begin() + end);
      for (uint32_t i = begin; i < end; ++i)
        if (i == begin || targets[i] != targets[i - 1]) targets[write++] = targets[i];
      continue;
    }
    row.clear();
    for (uint32_t i = begin; i < end; ++i) row.emplace_back(targets[i], actions[i]);
    std::sort(row.begin(), row.end());
    for (size_t i = 0; i < row.size();) {
      size_t j = i;
      std::vector<std::string> names;
      while (j < row.size() && row[j].first == row[i].first) {
        if (row[j].second >= 0 && (j == i || row[j].second != row[j - 1].second))
          names.push_back(action_names_[row[j].second]);
        ++j;
      }
      std::sort(names.begin(), names.end());
      targets[write] = row[i].first;
      actions[write] = names.empty() ? -1 : InternAction(absl::StrJoin(names, ", "));
      ++write;
      i = j;
    }
  }
  offsets[n] = write;
  targets.resize(write);
  targets.shrink_to_fit();
  if (with_actions) {
    actions.resize(write);
    actions.shrink_to_fit();
  }

  // Reverse rows by counting sort on the target; sources come out sorted.
  HugeArray<uint32_t> rev_offsets(n + 1, 0);
  for (uint32_t t : targets) ++rev_offsets[t + 1];
  for (uint32_t s = 0; s < n; ++s) rev_offsets[s + 1] += rev_offsets[s];
  HugeArray<uint32_t> sources(targets.size());
  {
    std::vector<uint32_t> pos(rev_offsets.begin(), rev_offsets.end() - 1);
    for (uint32_t s = 0; s < n; ++s)
      for (uint32_t i = offsets[s]; i < offsets[s + 1]; ++i) sources[pos[targets[i]]++] = s;
  }

  k.fwd_offsets_ = std::move(offsets);
  k.fwd_targets_ = std::move(targets);
  k.rev_offsets_ = std::move(rev_offsets);
  k.rev_sources_ = std::move(sources);
  k.edge_actions_ = std::move(actions);
  k.action_names_ = std::move(action_names_);
  k.names_ = std::move(names_);
  k.name_index_ = std::move(name_index_);
  k.state_lines_ = std::move(state_lines_);

  std::vector<std::string> label_names;
  for (const auto& [name, entry] : labels_) label_names.push_back(name);
  std::sort(label_names.begin(), label_names.end());
  for (const std::string& name : label_names) {
    StateSet set(n);
    for (uint32_t s : labels_[name].second) set.Insert(s);
    k.label_names_.push_back(name);
    k.label_states_.push_back(std::move(set));
  }
  std::vector<uint32_t> init;
  StateSet seen(n);
  for (uint32_t s : initial_)
    if (seen.InsertNew(s)) init.push_back(s);
  k.initial_ = std::move(init);
  for (auto& [state, actions] : initial_actions_) {
    std::sort(actions.begin(), actions.end());
    actions.erase(std::unique(actions.begin(), actions.end()), actions.end());
    k.initial_actions_[state] = absl::StrJoin(actions, ", ");
  }
  return k;
}

}  // namespace tracespec::ctl
