// Test helpers for the synthesizer: the behaviour oracle and contract
// checks of behaviour_oracle.h, plus a GoogleTest assertion that a contract
// admits observations.
#ifndef TRACESPEC_TESTS_AGENT_SYNTH_SYNTH_TESTING_H_
#define TRACESPEC_TESTS_AGENT_SYNTH_SYNTH_TESTING_H_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/agent/synth/behaviour_oracle.h"

namespace tracespec::testing {

// Asserts that `jml` checks and admits (or may admit: unknown) every one of
// `observations`.
inline void ExpectAdmitsAll(const std::string& jml,
                            const std::vector<v1::Observation>& observations) {
  CheckedContract c = CheckContract(jml, observations);
  ASSERT_EQ(c.error, "") << jml;
  for (const v1::Observation& o : observations) {
    jml::SpecEval e = c.Evaluate(o);
    std::string why;
    for (const auto& ce : e.cases) absl::StrAppend(&why, ce.label, ": ", ce.why, "; ");
    EXPECT_NE(e.admitted, jml::Truth::kFalse) << jml << o.DebugString() << why;
  }
}

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_AGENT_SYNTH_SYNTH_TESTING_H_
