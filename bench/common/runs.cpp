// See runs.h.
#include "bench/common/runs.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "common/files.h"
#include "common/status.h"

namespace tracespec::bench {

absl::StatusOr<std::string> OpenWorkDir(const std::string& dir, const std::string& prefix,
                                        bool* temporary) {
  *temporary = dir.empty();
  if (*temporary) return MakeTempDir(prefix);
  TS_RETURN_IF_ERROR(MakeDirs(dir));
  return dir;
}

void RunInOrder(size_t n, int jobs, const std::function<void(size_t)>& run,
                const std::function<void(size_t, int)>& done) {
  std::atomic<size_t> next{0};
  int finished = 0;
  std::mutex mu;
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) {
      run(i);
      std::lock_guard<std::mutex> lock(mu);
      done(i, ++finished);
    }
  };
  std::vector<std::thread> threads;
  for (size_t j = 0; j < std::min<size_t>(std::max(jobs, 1), n); ++j) {
    threads.emplace_back(worker);
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace tracespec::bench
