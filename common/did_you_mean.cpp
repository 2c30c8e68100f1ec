// "did you mean" suggestions; see did_you_mean.h.
#include "common/did_you_mean.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tracespec {

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string ClosestName(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(1, std::min<size_t>(2, name.size() / 3));
  for (const auto& c : candidates) {
    if (c == name) continue;
    size_t d = EditDistance(name, c);
    if (d <= best_d && (best.empty() || d < EditDistance(name, best))) best = c;
  }
  return best;
}

std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best = ClosestName(name, candidates);
  return best.empty() ? "" : absl::StrCat(" (did you mean '", best, "'?)");
}

}  // namespace tracespec
