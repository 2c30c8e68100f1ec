// What one `tracespec observe` wrote, read back for the e2e tests of its
// privacy options (noninterference_test.cpp, exclusion_test.cpp).
#ifndef TRACESPEC_TESTS_E2E_OBSERVED_H_
#define TRACESPEC_TESTS_E2E_OBSERVED_H_

#include <string>
#include <vector>

#include "common/files.h"
#include "common/proto_io.h"
#include "common/subprocess.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "tracespec/v1/summary.pb.h"

namespace tracespec::testing {

struct Observed {
  SubprocessResult result;
  std::string out;
  std::string jsonl;
  std::string pb;
  v1::ObserveSummary summary;
  std::vector<v1::Observation> observations;
  std::string Output() const { return result.stdout_data + result.stderr_data; }
};

// Runs `tracespec observe` with `args` (which end with `--out out`) and
// `options` (its environment), and reads back what it wrote to `out`; a
// missing or unreadable summary or observations file fails the current
// test.
inline Observed RunObserve(const std::vector<std::string>& args, const std::string& out,
                           const SubprocessOptions& options = {}) {
  Observed r;
  r.out = out;
  r.result = RunTracespec(args, options);
  r.jsonl = ReadFile(out + "/observations.jsonl").value_or("");
  r.pb = ReadFile(out + "/observations.pb").value_or("");
  auto summary = ReadFile(out + "/summary.json");
  EXPECT_TRUE(summary.ok() && FromJson(*summary, &r.summary).ok()) << r.Output();
  auto read = ReadObservations(out + "/observations.pb");
  EXPECT_TRUE(read.ok()) << read.status();
  if (read.ok()) r.observations = *read;
  return r;
}

// Expects `b` to have written what `a` did: the same observations, byte
// for byte, and the same summary but for the JVMs' wall times.
inline void ExpectSameOutput(const Observed& a, const Observed& b) {
  EXPECT_EQ(a.pb, b.pb);
  EXPECT_EQ(a.jsonl, b.jsonl);
  v1::ObserveSummary first = a.summary;
  v1::ObserveSummary second = b.summary;
  for (v1::ObserveSummary* s : {&first, &second}) {
    s->clear_jvm_seconds();
    s->clear_isolation_jvm_seconds();
  }
  EXPECT_EQ(first.SerializeAsString(), second.SerializeAsString());
}

}  // namespace tracespec::testing

#endif  // TRACESPEC_TESTS_E2E_OBSERVED_H_
