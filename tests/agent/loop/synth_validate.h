// Test helper of tests/agent/loop: the built-in synthesizer with the real
// validator (on real javac'd classes) as Houdini's oracle, then both checks
// of the contract it returns.
#ifndef TRACESPEC_TESTS_AGENT_LOOP_SYNTH_VALIDATE_H_
#define TRACESPEC_TESTS_AGENT_LOOP_SYNTH_VALIDATE_H_

#include <map>
#include <string>
#include <vector>

#include "agent/loop/feedback.h"
#include "agent/synth/synthesizer.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/check/validator.h"

namespace tracespec::testing {

struct Weakened {
  synth::SynthesisResult result;
  std::string bits;  // both checks of the final contract, with the observations
  std::string report;
};

// Synthesizes a contract for `method` of the compiled `source` with the
// validator as Houdini's oracle, then validates the result with the
// observations.
inline Weakened SynthesizeAndValidate(const std::map<std::string, std::string>& source,
                               const std::string& method,
                               const std::vector<v1::Observation>& observations) {
  Weakened out;
  TempDir dir;
  std::string classes = CompileJava(dir, source, {"-g"});
  if (classes.empty()) return out;
  auto validator = check::Validator::Create(classes);
  EXPECT_TRUE(validator.ok()) << validator.status();
  if (!validator.ok()) return out;
  check::ValidateRequest base;
  base.method = method;
  // Generous: the machine running the tests may be loaded.
  base.timeout_seconds = 300;
  loop::ValidatorOracle oracle(validator->get(), base);
  synth::SynthesisInput in;
  in.observations = observations;
  auto result = synth::Synthesize(in, {}, &oracle);
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok()) return out;
  out.result = *result;
  check::ValidateRequest request = base;
  request.contract = result->jml;
  request.has_observations = true;
  request.observations = observations;
  auto report = (*validator)->Validate(request);
  EXPECT_TRUE(report.ok()) << report.status();
  if (!report.ok()) return out;
  out.bits = report->Bits();
  out.report = check::FormatReportText(*report);
  return out;
}

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_AGENT_LOOP_SYNTH_VALIDATE_H_
