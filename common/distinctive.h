// Which numbers are distinctive enough to be secrets: the rule shared by the
// probe's taint set (observer/probe/taint.h) and the masking of
// counterexamples fed back to a model (agent/loop/feedback.h). Small values
// (loop bounds, counts, flags) recur everywhere and reveal nothing; a value
// outside [-kNumericTaintBound, kNumericTaintBound] is treated as one that
// may identify a secret (a PIN, an account number, a key). Header-only and
// dependency-free so that the JVMTI probe shares it.
#ifndef TRACESPEC_COMMON_DISTINCTIVE_H_
#define TRACESPEC_COMMON_DISTINCTIVE_H_

#include <cmath>
#include <cstdint>

namespace tracespec {

inline constexpr int64_t kNumericTaintBound = 1024;

inline bool DistinctiveNumber(double value) {
  return std::isfinite(value) && (value < -static_cast<double>(kNumericTaintBound) ||
                                  value > static_cast<double>(kNumericTaintBound));
}

}  // namespace tracespec

#endif  // TRACESPEC_COMMON_DISTINCTIVE_H_
