// Push/pull reachability closures; see closure.h.
#include "validator/ctl/closure.h"

#include <cstdint>
#include <memory>

#include "validator/ctl/huge_array.h"

namespace tracespec::ctl {

namespace {

struct Rows {
  const uint32_t* off;
  const uint32_t* adj;
};

class Closer {
 public:
  Closer(const Kripke& model, Direction direction, const StateSet* through, StateSet* result)
      : n_(model.num_states()),
        total_(model.num_transitions()),
        backward_(direction == Direction::kBackward),
        push_(backward_ ? Rows{model.rev_offsets(), model.rev_sources()}
                        : Rows{model.fwd_offsets(), model.fwd_targets()}),
        pull_(backward_ ? Rows{model.fwd_offsets(), model.fwd_targets()}
                        : Rows{model.rev_offsets(), model.rev_sources()}),
        through_(through),
        result_(result),
        queue_(n_) {}

  void Run(const StateSet* start) {
    (start ? start : result_)->ForEach([&](uint32_t s) { queue_[tail_++] = s; });
    // Sweeps are tried each time the push work has doubled, and a sweep
    // that does not pay is cut short after a quarter of the push work so
    // far: what failed attempts waste is at most half the push work.
    uint64_t pushed = 0, next_attempt = 64;
    while (head_ < tail_) {
      if (pushed >= next_attempt) {
        Sweeps(/*limit=*/pushed / 4);
        next_attempt = 2 * pushed;
        continue;
      }
      pushed += Push(next_attempt - pushed);
    }
  }

 private:
  // Sweeps while they pay. Returns with the queue holding what is still to
  // be pushed.
  void Sweeps(uint64_t limit) {
    while (head_ < tail_) {
      const uint32_t begin = tail_;
      uint64_t scanned = 0, gain = 0;
      const bool complete =
          backward_ ? Sweep<true>(limit, &scanned, &gain) : Sweep<false>(limit, &scanned, &gain);
      if (!complete) return;
      // Every state queued before the sweep had all its candidate
      // neighbours examined after it joined: only the sweep's own additions
      // (whose neighbours may have been examined before they joined) remain.
      head_ = begin;
      if (gain * 8 < scanned) return;
    }
  }

  // One sweep in index order (decreasing for backward closures). False when
  // cut short: after `limit` row entries it did not pay.
  template <bool kDescending>
  bool Sweep(uint64_t limit, uint64_t* scanned, uint64_t* gain) {
    const size_t words = result_->num_words();
    uint64_t* in = result_->data();
    const uint64_t* allowed = through_ ? through_->data() : nullptr;
    for (size_t k = 0; k < words; ++k) {
      const size_t w = kDescending ? words - 1 - k : k;
      uint64_t candidates = ~in[w] & (allowed ? allowed[w] : ~uint64_t{0});
      if (w + 1 == words && n_ % 64 != 0) candidates &= (uint64_t{1} << (n_ % 64)) - 1;
      while (candidates) {
        const int bit = kDescending ? 63 - __builtin_clzll(candidates) : __builtin_ctzll(candidates);
        candidates &= ~(uint64_t{1} << bit);
        const uint32_t u = static_cast<uint32_t>(w * 64 + bit);
        const uint32_t begin = pull_.off[u], end = pull_.off[u + 1];
        for (uint32_t i = begin; i < end; ++i) {
          if (result_->Contains(pull_.adj[i])) {
            in[w] |= uint64_t{1} << bit;
            queue_[tail_++] = u;
            *gain += end - begin;
            *scanned += i - begin + 1;
            goto next;
          }
        }
        *scanned += end - begin + 1;
      next:;
      }
      if (*scanned >= limit && *gain * 8 < *scanned) return false;
    }
    return true;
  }

  // Pushes queued states until `budget` row entries were read (or the queue
  // is empty); returns the entries read.
  uint64_t Push(uint64_t budget) {
    // The queue says which rows come next: prefetch their offsets, then
    // their rows, so that the random accesses overlap.
    constexpr uint32_t kAhead = 16;
    uint64_t done = 0;
    while (head_ < tail_) {
      if (head_ + kAhead < tail_) __builtin_prefetch(&push_.off[queue_[head_ + kAhead]]);
      if (head_ + kAhead / 2 < tail_) __builtin_prefetch(&push_.adj[push_.off[queue_[head_ + kAhead / 2]]]);
      const uint32_t t = queue_[head_++];
      const uint32_t begin = push_.off[t], end = push_.off[t + 1];
      for (uint32_t i = begin; i < end; ++i) {
        const uint32_t p = push_.adj[i];
        if (through_ && !through_->Contains(p)) continue;
        if (result_->InsertNew(p)) queue_[tail_++] = p;
      }
      done += end - begin + 1;
      if (done >= budget) break;
    }
    return done;
  }

  const uint32_t n_;
  const uint64_t total_;
  const bool backward_;
  const Rows push_, pull_;
  const StateSet* through_;
  StateSet* result_;
  // Every state enters the queue once, when it joins the set: [head_, tail_)
  // are still to be pushed.
  HugeArray<uint32_t> queue_;
  uint32_t head_ = 0, tail_ = 0;
};

class Pruner {
 public:
  Pruner(const Kripke& model, Direction direction, StateSet* set)
      : n_(model.num_states()),
        forward_(direction == Direction::kForward),
        keep_(forward_ ? Rows{model.fwd_offsets(), model.fwd_targets()}
                       : Rows{model.rev_offsets(), model.rev_sources()}),
        notify_(forward_ ? Rows{model.rev_offsets(), model.rev_sources()}
                         : Rows{model.fwd_offsets(), model.fwd_targets()}),
        set_(set) {}

  void Run() {
    // Often nothing goes (AF q = !EG !q with a rare q): a sweep that stops
    // at each state's first neighbour inside finds out reading little, and
    // stops at the first state that has to go.
    if (!(forward_ ? AnyToRemove<true>() : AnyToRemove<false>())) return;
    // Otherwise count each state's neighbours inside in one sequential pass
    // and propagate removals with a queue: each removal counts down its
    // neighbours' counts.
    const uint32_t n = n_;
    HugeArray<uint32_t> count(n);
    HugeArray<uint32_t> queue;
    set_->ForEach([&](uint32_t u) {
      uint32_t c = 0;
      for (uint32_t i = keep_.off[u], end = keep_.off[u + 1]; i < end; ++i) c += set_->Contains(keep_.adj[i]);
      count[u] = c;
      if (c == 0) queue.push_back(u);
    });
    for (uint32_t u : queue) set_->Erase(u);
    for (size_t head = 0; head < queue.size(); ++head) {
      const uint32_t t = queue[head];
      for (uint32_t i = notify_.off[t], end = notify_.off[t + 1]; i < end; ++i) {
        const uint32_t p = notify_.adj[i];
        if (set_->Contains(p) && --count[p] == 0) {
          set_->Erase(p);
          queue.push_back(p);
        }
      }
    }
  }

 private:
  // Whether some member has no neighbour inside; stops at the first.
  template <bool kDescending>
  bool AnyToRemove() const {
    const size_t words = set_->num_words();
    const uint64_t* in = set_->data();
    for (size_t k = 0; k < words; ++k) {
      const size_t w = kDescending ? words - 1 - k : k;
      for (uint64_t members = in[w]; members; members &= members - 1) {
        const uint32_t u = static_cast<uint32_t>(w * 64 + __builtin_ctzll(members));
        uint32_t i = keep_.off[u];
        const uint32_t end = keep_.off[u + 1];
        while (i < end && !set_->Contains(keep_.adj[i])) ++i;
        if (i == end) return true;
      }
    }
    return false;
  }

  const uint32_t n_;
  const bool forward_;
  const Rows keep_, notify_;
  StateSet* set_;
};

}  // namespace

void Prune(const Kripke& model, Direction direction, StateSet* set) { Pruner(model, direction, set).Run(); }

void Close(const Kripke& model, Direction direction, const StateSet* through, StateSet* result,
           const StateSet* start) {
  Closer(model, direction, through, result).Run(start);
}

}  // namespace tracespec::ctl
