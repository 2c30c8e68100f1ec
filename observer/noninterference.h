// observe --noninterference: deciding what depends on a denied value by
// comparing runs. Run A is the normal run; run B the same tests with every
// denied field substituted (probe/substitute.h); run C, only when A and B
// differ, B again with the same seed. Observations are aligned per test id
// and, within a test, by the order of its calls (the k-th call of each
// method). Every recorded value of A — argument, receiver, field of a pre-
// or post-state object at any depth, array element, returned value — that
// differs from B's is withheld: as depending on a denied value, or as
// nondeterministic when it also differs between B and C (time, hash
// codes: nothing is guessed). A test whose sequence of calls differs
// between A and B has every value of its observations withheld.
// Plain C++ over the protobuf messages, unit-testable without a JVM.
#ifndef TRACESPEC_OBSERVER_NONINTERFERENCE_H_
#define TRACESPEC_OBSERVER_NONINTERFERENCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tracespec/v1/observation.pb.h"

namespace tracespec::observer {

// Redacted.reason of the values this withholds.
inline constexpr char kDependsOnDenied[] = "depends on a denied value";
inline constexpr char kNondeterministic[] = "nondeterministic: dependence not decided";

// The seed of the substitutes unless --noninterference-seed says otherwise.
inline constexpr uint64_t kDefaultNoninterferenceSeed = 1;

struct Withheld {
  int64_t dependent = 0;
  int64_t nondeterministic = 0;
  // Tests whose sequence of calls differed, sorted.
  std::vector<std::string> tests;
  bool any() const { return dependent + nondeterministic > 0; }
};

// Withholds in `a` what differs from `b`; with `c` (the second substituted
// run), a value that also differs between `b` and `c` is withheld as
// nondeterministic. Without `c` every difference counts as dependent (how
// the observer decides whether C must run). `a`, `b` and `c` are each one run's observations in any
// order.
Withheld WithholdDifferences(std::vector<v1::Observation>* a,
                             const std::vector<v1::Observation>& b,
                             const std::vector<v1::Observation>* c);

}  // namespace tracespec::observer

#endif  // TRACESPEC_OBSERVER_NONINTERFERENCE_H_
