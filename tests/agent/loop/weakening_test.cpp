// Counterexample-guided weakening with the real validator on real javac'd
// classes: a clause the validator refutes is not dropped but kept under a
// guard that excludes its counterexamples and keeps every observation, and
// the guarded contract passes both checks (consistency and coverage).
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/call_builder.h"
#include "agent/gateway/gateway.h"
#include "agent/loop/method_inputs.h"
#include "agent/loop/refine.h"
#include "common/files.h"
#include "tests/agent/fake_llm_server.h"
#include "tests/agent/loop/synth_validate.h"

namespace tracespec::loop {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::Call;
using testing::D;
using testing::I;
using testing::SynthesizeAndValidate;
using testing::Weakened;

// The contract holds `guarded` (an ensures clause), passes both checks, and
// reports `original` as weakened.
void ExpectGuarded(const Weakened& w, const std::string& guarded, const std::string& original) {
  EXPECT_THAT(w.result.jml, HasSubstr(guarded))
      << ::testing::PrintToString(w.result.hypotheses) << w.result.oracle_verdict;
  EXPECT_EQ(w.bits, "11") << w.result.jml << w.report;
  EXPECT_THAT(w.result.weakened, Contains(HasSubstr(absl::StrCat("`", original, "`"))));
}

TEST(WeakeningTest, NaNIsGuardedNotDropped) {
  std::map<std::string, std::string> src = {{"t/Temp.java", R"(package t;
public class Temp {
  public static double toKelvin(double celsius) { return celsius + 273.15; }
})"}};
  std::vector<v1::Observation> obs;
  for (double c : {0.0, 100.0, -40.0, 36.5, -273.15}) {
    obs.push_back(Call("t.Temp", "toKelvin", "(D)D", {"celsius"}, true)
                      .Arg(D(c))
                      .Returns(D(c + 273.15))
                      .Build());
  }
  Weakened w = SynthesizeAndValidate(src, "t.Temp#toKelvin", obs);
  ExpectGuarded(w, "ensures !Double.isNaN(celsius) ==> \\result == celsius + 273.15;",
                "ensures \\result == celsius + 273.15;");
  EXPECT_THAT(w.result.dropped, Not(Contains(HasSubstr("celsius + 273.15"))));
  EXPECT_THAT(w.result.hypotheses, Contains(HasSubstr("weakened: ")));
}

TEST(WeakeningTest, ARecordedNaNCallIsGuardedAndItsResultStated) {
  // A test that passes NaN: the recorded call itself refutes
  // `\result == celsius + 273.15` (NaN != NaN). It sits on an edge of the
  // input domain, so the clause is weakened by `!Double.isNaN(celsius)`, and
  // the NaN calls get a clause of their own.
  std::map<std::string, std::string> src = {{"t/Temp.java", R"(package t;
public class Temp {
  public static double toKelvin(double celsius) { return celsius + 273.15; }
})"}};
  std::vector<v1::Observation> obs;
  for (double c : {std::nan(""), 0.0, 100.0, -40.0, 36.5, -273.15}) {
    obs.push_back(Call("t.Temp", "toKelvin", "(D)D", {"celsius"}, true)
                      .Arg(D(c))
                      .Returns(D(c + 273.15))
                      .Build());
  }
  Weakened w = SynthesizeAndValidate(src, "t.Temp#toKelvin", obs);
  EXPECT_EQ(w.bits, "11") << w.result.jml << w.report;
  EXPECT_THAT(w.result.jml,
              HasSubstr("ensures !Double.isNaN(celsius) ==> \\result == celsius + 273.15;"));
  EXPECT_THAT(w.result.jml, HasSubstr("ensures Double.isNaN(celsius) ==> Double.isNaN(\\result);"));
  EXPECT_THAT(w.result.weakened,
              Contains(HasSubstr("is refuted by recorded calls on an edge of the input domain")));
}

TEST(WeakeningTest, MinValueOverflowIsGuarded) {
  // x + y by counting: -y overflows at Integer.MIN_VALUE and the loop does
  // not run.
  std::map<std::string, std::string> src = {{"t/Counting.java", R"(package t;
public class Counting {
  public static int add(int x, int y) {
    int r = x;
    if (y >= 0) {
      for (int i = 0; i < y; i++) r++;
    } else {
      int n = -y;
      for (int i = 0; i < n; i++) r--;
    }
    return r;
  }
})"}};
  std::vector<v1::Observation> obs;
  for (auto [x, y] : std::vector<std::pair<int, int>>{{3, 2}, {1, -2}, {0, 0}, {5, -1}, {-4, 3}}) {
    obs.push_back(Call("t.Counting", "add", "(II)I", {"x", "y"}, true)
                      .Arg(I(x))
                      .Arg(I(y))
                      .Returns(I(x + y))
                      .Build());
  }
  Weakened w = SynthesizeAndValidate(src, "t.Counting#add", obs);
  ExpectGuarded(w, "ensures y != Integer.MIN_VALUE ==> \\result == x + y;",
                "ensures \\result == x + y;");
}

TEST(WeakeningTest, ArgumentRelationGuardsAClamp) {
  std::map<std::string, std::string> src = {{"t/Range.java", R"(package t;
public class Range {
  public static int clamp(int x, int lo, int hi) {
    if (x < lo) return lo;
    if (x > hi) return hi;
    return x;
  }
})"}};
  std::vector<v1::Observation> obs;
  for (auto [x, lo, hi] : std::vector<std::tuple<int, int, int>>{
           {5, 0, 10}, {-3, 0, 10}, {12, 0, 10}, {7, 7, 9}, {2, -5, 5}, {9, 1, 8}}) {
    int r = x < lo ? lo : (x > hi ? hi : x);
    obs.push_back(Call("t.Range", "clamp", "(III)I", {"x", "lo", "hi"}, true)
                      .Arg(I(x))
                      .Arg(I(lo))
                      .Arg(I(hi))
                      .Returns(I(r))
                      .Build());
  }
  // The first nested conditional fitting the calls reads `x <= lo` before
  // `x > hi`: with lo > hi it is wrong, and the validator says so; the
  // guard `lo <= hi` keeps it. The one in the code's order holds as it is.
  Weakened w = SynthesizeAndValidate(src, "t.Range#clamp", obs);
  ExpectGuarded(w, "ensures lo <= hi ==> \\result == (x <= lo ? lo : x <= hi ? x : hi);",
                "ensures \\result == (x <= lo ? lo : x <= hi ? x : hi);");
  EXPECT_THAT(w.result.jml, HasSubstr("ensures \\result == (x >= lo ? x <= hi ? x : hi : lo);"));
}

TEST(WeakeningTest, ExceptionPreconditionIsARangeRefinedByCounterexamples) {
  // The tests saw pct = 0..90 succeed: the guard read off them
  // (pct > 90) is refuted by the validator (pct = 95 returns) and moves to
  // the implementation's boundary.
  std::map<std::string, std::string> src = {{"t/Percent.java", R"(package t;
public class Percent {
  public static int of(int total, int pct) {
    if (pct < 0 || pct > 100) throw new IllegalArgumentException("pct");
    return total / 100 * pct;
  }
})"}};
  std::vector<v1::Observation> obs;
  for (auto [total, pct] : std::vector<std::pair<int, int>>{
           {200, 50}, {800, 0}, {300, 90}, {100, -1}, {100, 101}, {100, 250}, {100, -30}}) {
    Call c("t.Percent", "of", "(II)I", {"total", "pct"}, true);
    c.Arg(I(total)).Arg(I(pct));
    obs.push_back(pct < 0 || pct > 100 ? c.Throws("java.lang.IllegalArgumentException").Build()
                                       : c.Returns(I(total / 100 * pct)).Build());
  }
  Weakened w = SynthesizeAndValidate(src, "t.Percent#of", obs);
  EXPECT_THAT(w.result.jml, HasSubstr("requires pct < 0 || pct > 100;"));
  EXPECT_THAT(w.result.jml, HasSubstr("signals_only IllegalArgumentException;"));
  EXPECT_THAT(w.result.jml, Not(HasSubstr("behavior\n//@   signals_only")));
  EXPECT_EQ(w.bits, "11") << w.result.jml << w.report;
}

// One round of the loop on `method` of the compiled `classes` (run
// directory `dir`/m): a fake model on loopback answers `contract`
// (annotation lines) and the real validator checks it. `requests`, when
// given, gets how many requests the model received.
absl::StatusOr<RefineOutcome> RefineModelAnswer(const testing::TempDir& dir,
                                                const std::string& classes,
                                                const std::string& method,
                                                const std::vector<v1::Observation>& obs,
                                                const std::string& contract,
                                                size_t* requests = nullptr) {
  TS_ASSIGN_OR_RETURN(auto path, classfile::ClassPath::Create(classes));
  TS_ASSIGN_OR_RETURN(auto inputs, LoadMethodInputs(method, path, obs, "observations", ""));
  std::string escaped =
      absl::StrReplaceAll(contract, {{"\\", "\\\\"}, {"\"", "\\\""}, {"\n", "\\n"}});
  std::string answer = absl::StrCat("{\"contract\": \"", escaped, "\", \"hypotheses\": []}");
  testing::FakeLlmServer server(
      absl::StrCat("{\"responses\":[", testing::ContentEntry(answer), "],\"then\":\"fail\"}"));
  if (!server.running()) return absl::InternalError("the fake model server did not start");
  gateway::GatewayConfig config;
  config.endpoint.base_url = server.base_url();
  config.endpoint.model = "fake-model";
  config.egress_policy_path = testing::SourceDir() + "/policies/egress.textproto";
  config.audit_log_path = dir.path() + "/audit.jsonl";
  config.audit_key_path = dir.path() + "/audit.key";
  config.observations = obs;
  TS_ASSIGN_OR_RETURN(auto client, gateway::MakeGatewayClient(config));
  TS_ASSIGN_OR_RETURN(auto validator, check::Validator::Create(classes));
  RefineOptions options;
  options.rounds = 1;
  absl::StatusOr<RefineOutcome> outcome = RefineMethod(
      inputs, client.get(), validator.get(), dir.path() + "/m", dir.path(), options);
  if (requests != nullptr) *requests = server.Received().size();
  return outcome;
}

// A model's candidate goes through the same weakening: the fake model on
// loopback answers `\result == c + 273.15`, the validator refutes it at
// NaN, and the repair layer guards it before the round's verdict; the guard
// is in repairs.txt and the round is `11`.
TEST(WeakeningTest, AModelsRefutedClauseIsGuardedInTheRepairLayer) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(dir, {{"t/Temp.java", R"(package t;
public class Temp {
  public static double toKelvin(double c) { return c + 273.15; }
})"}},
                                             {"-g"});
  ASSERT_FALSE(classes.empty());
  std::vector<v1::Observation> obs;
  for (double c : {0.0, 100.0, -40.0, 36.5}) {
    obs.push_back(
        Call("t.Temp", "toKelvin", "(D)D", {"c"}, true).Arg(D(c)).Returns(D(c + 273.15)).Build());
  }
  size_t requests = 0;
  auto outcome = RefineModelAnswer(dir, classes, "t.Temp#toKelvin", obs,
                                   "//@ public normal_behavior\n//@   assignable \\nothing;\n"
                                   "//@   ensures \\result == c + 273.15;\n",
                                   &requests);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(outcome->result.history(), "11") << outcome->result.ShortDebugString();
  EXPECT_THAT(outcome->result.contract(),
              HasSubstr("ensures !Double.isNaN(c) ==> \\result == c + 273.15;"));
  auto repairs = ReadFile(dir.path() + "/m/round-1/repairs.txt");
  ASSERT_TRUE(repairs.ok()) << repairs.status();
  EXPECT_THAT(*repairs, HasSubstr("guarded with `!Double.isNaN(c)`"));
  EXPECT_THAT(*repairs, HasSubstr("was: ensures \\result == c + 273.15;"));
  // The round's record says the clause was refuted, and by how many
  // counterexamples (its report is of the guarded candidate and has none).
  ASSERT_TRUE(outcome->last_round.has_value());
  ASSERT_EQ(outcome->last_round->repairs_size(), 1);
  EXPECT_GE(outcome->last_round->repairs(0).refuted_by(), 1);
  EXPECT_EQ(requests, 1u);
}

// A guard that only restates the clause's consequent is no weakening: the
// model's `\result ==> \old(m) != 0` is refuted where m is 0, and m was
// never 0 on a recorded call, so `\old(m) != 0` would separate them — but
// `\old(m) != 0 ==> \result ==> \old(m) != 0` holds whatever the values and
// says nothing. The clause stays refuted (the round is not `11`) and no
// tautology reaches the contract.
TEST(WeakeningTest, AGuardThatMakesTheClauseATautologyIsNotApplied) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(dir, {{"t/Gate.java", R"(package t;
public class Gate {
  private int m;
  public Gate(int m) { this.m = m; }
  public boolean open(int k) { return k > 0; }
})"}},
                                             {"-g"});
  ASSERT_FALSE(classes.empty());
  std::vector<v1::Observation> obs;
  for (auto [m, k] : std::vector<std::pair<int, int>>{{5, 1}, {3, -1}, {7, 4}, {2, -2}, {9, 6}}) {
    obs.push_back(Call("t.Gate", "open", "(I)Z", {"k"}, false)
                      .Receiver({{"m", {"I", I(m)}}}, {{"m", {"I", I(m)}}})
                      .Arg(I(k))
                      .Returns(testing::B(k > 0))
                      .Build());
  }
  auto outcome = RefineModelAnswer(dir, classes, "t.Gate#open", obs,
                                   "//@ public normal_behavior\n//@   assignable \\nothing;\n"
                                   "//@   ensures \\result ==> \\old(m) != 0;\n");
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_THAT(outcome->result.contract(), HasSubstr("ensures \\result ==> \\old(m) != 0;"));
  EXPECT_THAT(outcome->result.contract(), Not(HasSubstr("==> \\result ==>")))
      << outcome->result.contract();
  EXPECT_THAT(outcome->result.contract(), Not(HasSubstr("==> (\\result ==>")));
  EXPECT_NE(outcome->result.history(), "11") << outcome->result.ShortDebugString();
  auto repairs = ReadFile(dir.path() + "/m/round-1/repairs.txt");
  ASSERT_TRUE(repairs.ok()) << repairs.status();
  EXPECT_THAT(*repairs, Not(HasSubstr("guarded with")));
}

}  // namespace
}  // namespace tracespec::loop
