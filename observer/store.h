// The observation store: what is kept of the calls a run recorded, and the
// files that hold it. A run of any kind (JUnit under the probe, or another
// driver) shows the store every recorded observation once to Note(), then
// again, in sequence order, to Write(); the store keeps per method
//   - one representative (the earliest) of each distinct behaviour
//     (BehaviourKey below), always, and
//   - a deterministic sample of the other observations, so that at most
//     `max_per_method` are kept in all (unless the representatives alone
//     are more): those whose sequence numbers hash lowest under a fixed
//     SplitMix64, so a re-run of the same tests keeps the same ones and the
//     sample spreads over the whole run, not its first calls;
// and counts what it dropped. observations.pb holds the kept observations;
// observations.jsonl mirrors them one JSON object per line, written as they
// go (never more than a few MB held).
#ifndef TRACESPEC_OBSERVER_STORE_H_
#define TRACESPEC_OBSERVER_STORE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "absl/status/status.h"
#include "common/files.h"
#include "tracespec/v1/observation.pb.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::observer {

// The behaviour an observation shows, as a string equal for observations of
// the same behaviour: its method; its outcome kind (returned a value,
// returned void, or threw, with the exception's class); and the branch each
// recorded value falls in — for the arguments, the returned value, and
// every field of the receiver's and the arguments' objects before and after
// the call: false/true; negative/zero/positive (NaN apart) for numbers;
// null; empty/non-empty for strings; length 0/1/more for arrays; another
// object; redacted — and, per field, whether the call changed it.
std::string BehaviourKey(const v1::Observation& observation);

class ObservationStore {
 public:
  // `max_per_method` <= 0: keep every observation.
  explicit ObservationStore(int64_t max_per_method);

  // First pass: every recorded observation, in any order.
  void Note(const v1::Observation& observation);

  // Opens out_dir/observations.pb and observations.jsonl (atomically
  // replaced at Commit); then Write() every observation in sequence order
  // (those not kept are skipped), then Commit().
  absl::Status Open(const std::string& out_dir);
  absl::Status Write(const v1::Observation& observation);
  absl::Status Commit();

  // Whether the observation with this sequence number (noted before) is
  // kept.
  bool Keeps(uint64_t sequence);
  bool Keeps(const v1::Observation& observation) { return Keeps(observation.sequence()); }

  // Sets kept / dropped / behaviours of summary->methods and the totals.
  void Fill(v1::ObserveSummary* summary);

 private:
  struct MethodState {
    std::map<std::string, uint64_t> representatives;  // behaviour -> earliest sequence
    std::vector<std::pair<uint64_t, uint64_t>> others;  // (hash, sequence)
    int64_t recorded = 0;
  };
  void Choose();  // once, after the last Note()
  absl::Status Flush();

  int64_t max_per_method_;
  std::map<std::string, MethodState> methods_;
  std::unordered_set<uint64_t> kept_;  // sequences
  std::map<std::string, int64_t> kept_per_method_;
  bool chosen_ = false;
  std::optional<AtomicFileWriter> pb_;
  std::optional<AtomicFileWriter> jsonl_;
  std::string pb_buffer_;
  std::string jsonl_buffer_;
};

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_STORE_H_
