// A set of states of a Kripke structure as a dense bitset: one bit per state,
// 64 states per word. The checker keeps one such set per sub-formula, so the
// boolean connectives are word-wise loops and membership is one shift.
#ifndef TRACESPEC_VALIDATOR_CTL_STATE_SET_H_
#define TRACESPEC_VALIDATOR_CTL_STATE_SET_H_

#include <cstdint>
#include <vector>

namespace tracespec::ctl {

class StateSet {
 public:
  StateSet() = default;
  // `size` states, all absent (or all present when `full`).
  explicit StateSet(uint32_t size, bool full = false)
      : size_(size), words_((size + 63) / 64, full ? ~uint64_t{0} : 0) {
    if (full) ClearTail();
  }

  uint32_t size() const { return size_; }
  bool Contains(uint32_t s) const { return (words_[s >> 6] >> (s & 63)) & 1; }
  void Insert(uint32_t s) { words_[s >> 6] |= uint64_t{1} << (s & 63); }
  void Erase(uint32_t s) { words_[s >> 6] &= ~(uint64_t{1} << (s & 63)); }
  // Inserts `s` and says whether it was absent before.
  bool InsertNew(uint32_t s) {
    uint64_t& w = words_[s >> 6];
    const uint64_t bit = uint64_t{1} << (s & 63);
    if (w & bit) return false;
    w |= bit;
    return true;
  }

  uint64_t Count() const {
    uint64_t n = 0;
    for (uint64_t w : words_) n += __builtin_popcountll(w);
    return n;
  }
  bool Empty() const {
    for (uint64_t w : words_) if (w) return false;
    return true;
  }

  void Fill() {
    for (uint64_t& w : words_) w = ~uint64_t{0};
    ClearTail();
  }
  void Clear() {
    for (uint64_t& w : words_) w = 0;
  }
  void Complement() {
    for (uint64_t& w : words_) w = ~w;
    ClearTail();
  }
  void UnionWith(const StateSet& o) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
  }
  void IntersectWith(const StateSet& o) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i];
  }
  // this := this \ o
  void Subtract(const StateSet& o) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] &= ~o.words_[i];
  }
  // this := ¬this ∪ o (implication)
  void ImpliesWith(const StateSet& o) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] = ~words_[i] | o.words_[i];
    ClearTail();
  }
  // this := (this ↔ o)
  void IffWith(const StateSet& o) {
    for (size_t i = 0; i < words_.size(); ++i) words_[i] = ~(words_[i] ^ o.words_[i]);
    ClearTail();
  }
  bool Intersects(const StateSet& o) const {
    for (size_t i = 0; i < words_.size(); ++i)
      if (words_[i] & o.words_[i]) return true;
    return false;
  }

  // Calls f(state) for every member in increasing order.
  template <typename F>
  void ForEach(F f) const {
    for (size_t i = 0; i < words_.size(); ++i) {
      uint64_t w = words_[i];
      while (w) {
        const int b = __builtin_ctzll(w);
        f(static_cast<uint32_t>(i * 64 + b));
        w &= w - 1;
      }
    }
  }
  // Smallest member, or size() when empty.
  uint32_t First() const {
    for (size_t i = 0; i < words_.size(); ++i)
      if (words_[i]) return static_cast<uint32_t>(i * 64 + __builtin_ctzll(words_[i]));
    return size_;
  }

  bool operator==(const StateSet& o) const { return size_ == o.size_ && words_ == o.words_; }
  bool operator!=(const StateSet& o) const { return !(*this == o); }
  uint64_t* data() { return words_.data(); }
  const uint64_t* data() const { return words_.data(); }
  size_t num_words() const { return words_.size(); }
  size_t MemoryBytes() const { return words_.capacity() * sizeof(uint64_t); }

 private:
  void ClearTail() {
    if (size_ % 64 != 0 && !words_.empty()) words_.back() &= (uint64_t{1} << (size_ % 64)) - 1;
  }

  uint32_t size_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace tracespec::ctl

#endif  // TRACESPEC_VALIDATOR_CTL_STATE_SET_H_
