// Tests of Houdini pruning with an oracle (agent/synth/oracle.h): an oracle
// that knows the implementation's behaviours on a small grid refutes
// clauses with counterexamples until a fixpoint; scripted oracles refute
// clauses by span, report errors, or make no progress.
#include <functional>
#include <random>

#include "agent/synth/synthesizer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/synth/synth_testing.h"
#include "tests/agent/synth/tasks.h"

namespace tracespec::synth {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// An oracle answering from a list of verdicts, recording what it was asked.
class ScriptedOracle : public ConsistencyOracle {
 public:
  explicit ScriptedOracle(std::vector<std::function<OracleVerdict(const std::string&)>> script)
      : script_(std::move(script)) {}
  OracleVerdict Check(const std::string& contract) override {
    asked_.push_back(contract);
    if (next_ < script_.size()) return script_[next_++](contract);
    OracleVerdict pass;
    pass.kind = OracleVerdict::Kind::kPass;
    return pass;
  }
  const std::vector<std::string>& asked() const { return asked_; }

 private:
  std::vector<std::function<OracleVerdict(const std::string&)>> script_;
  size_t next_ = 0;
  std::vector<std::string> asked_;
};

// The 1-based line of the first line of `jml` containing `needle`.
int LineOf(const std::string& jml, const std::string& needle) {
  int line = 1;
  size_t start = 0;
  while (start < jml.size()) {
    size_t end = jml.find('\n', start);
    if (end == std::string::npos) end = jml.size();
    if (jml.substr(start, end - start).find(needle) != std::string::npos) return line;
    ++line;
    start = end + 1;
  }
  return 0;
}

// A verdict of `kind` naming the clause of `contract` that contains `needle`.
OracleVerdict AtClause(const std::string& contract, const std::string& needle,
                       OracleVerdict::Kind kind, const std::string& message) {
  OracleVerdict v;
  v.kind = kind;
  v.message = message;
  jml::SourceSpan span;
  span.line = LineOf(contract, needle);
  span.column = 5;
  v.failing_clauses.push_back(span);
  return v;
}

SynthesisResult Synth(const std::vector<v1::Observation>& obs, ConsistencyOracle* oracle,
                    SynthesisOptions options = {}) {
  SynthesisInput in;
  in.observations = obs;
  auto r = Synthesize(in, options, oracle);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : SynthesisResult{};
}

TEST(OracleTest, CounterexamplesDriveMaxToItsFixpoint) {
  // Recorded: only a >= b. The implementation: max over a small grid.
  std::vector<v1::Observation> recorded = {testing::MaxCall(5, 3), testing::MaxCall(4, 4),
                                           testing::MaxCall(9, -1)};
  std::vector<v1::Observation> behaviours = recorded;
  for (int a = -2; a <= 2; ++a) {
    for (int b = -2; b <= 2; ++b) behaviours.push_back(testing::MaxCall(a, b));
  }
  testing::BehaviourOracle oracle(behaviours, /*with_spans=*/false);
  SynthesisResult r = Synth(recorded, &oracle);
  EXPECT_EQ(r.oracle_verdict, "PASS");
  EXPECT_GE(oracle.calls(), 2);
  EXPECT_EQ(r.stats.oracle_rounds, oracle.calls());
  EXPECT_THAT(oracle.contracts()[0], HasSubstr("ensures \\result == a;"));
  EXPECT_THAT(r.jml, HasSubstr("ensures \\result == (a <= b ? b : a);"));
  EXPECT_THAT(r.hypotheses, Contains(HasSubstr("`ensures \\result == a;`")));
  EXPECT_GE(r.stats.counterexamples, 1);
  testing::ExpectAdmitsAll(r.jml, behaviours);
}

TEST(OracleTest, CounterexamplesMoveAGuardBoundary) {
  // Recorded failures only at amount == 0; the implementation throws for
  // every amount <= 0.
  std::vector<v1::Observation> recorded = {testing::DepositCall(10, 0, 0),
                                           testing::DepositCall(5, 10, 10),
                                           testing::DepositCall(7, 15, 315),
                                           testing::DepositCall(0, 22, 9772)};
  std::vector<v1::Observation> behaviours = recorded;
  for (int amount = -3; amount <= 3; ++amount) behaviours.push_back(testing::DepositCall(amount, 4, 1));
  testing::BehaviourOracle oracle(behaviours, /*with_spans=*/true);
  SynthesisResult r = Synth(recorded, &oracle);
  EXPECT_THAT(oracle.contracts()[0], HasSubstr("requires amount == 0;"));
  EXPECT_EQ(r.oracle_verdict, "PASS");
  EXPECT_THAT(r.jml, HasSubstr("requires amount <= 0;"));
  EXPECT_THAT(r.jml, HasSubstr("requires amount > 0;"));
  testing::ExpectAdmitsAll(r.jml, behaviours);
}

TEST(OracleTest, ClausesRefutedBySpanAreDroppedAndReported) {
  const std::vector<v1::Observation> obs = testing::TaskObservations("count");
  const std::string key = "(\\num_of int i; 0 <= i && i < a.length; a[i] == key)";
  ScriptedOracle oracle({[&](const std::string& contract) {
    return AtClause(contract, key, OracleVerdict::Kind::kError, "unsupported construct");
  }});
  SynthesisResult r = Synth(obs, &oracle);
  ASSERT_EQ(oracle.asked().size(), 2u);
  EXPECT_THAT(oracle.asked()[0], HasSubstr(key));
  EXPECT_THAT(r.jml, Not(HasSubstr(key)));
  EXPECT_EQ(r.oracle_verdict, "PASS");
  EXPECT_THAT(r.hypotheses, Contains(AllOf(HasSubstr(key), HasSubstr("could not be checked"))));
  testing::ExpectAdmitsAll(r.jml, obs);
}

TEST(OracleTest, TheFrameCanBeRefutedToo) {
  const std::vector<v1::Observation> obs = testing::TaskObservations("deposit");
  ScriptedOracle oracle({[&](const std::string& contract) {
    OracleVerdict v;
    v.kind = OracleVerdict::Kind::kFail;
    jml::SourceSpan span;
    span.line = LineOf(contract, "assignable balance, checksum;");
    v.failing_clauses.push_back(span);
    return v;
  }});
  SynthesisResult r = Synth(obs, &oracle);
  EXPECT_THAT(oracle.asked()[0], HasSubstr("assignable balance, checksum;"));
  EXPECT_THAT(r.jml, Not(HasSubstr("assignable balance")));
  EXPECT_THAT(r.jml, HasSubstr("assignable \\nothing;"));  // the exceptional case keeps its frame
}

TEST(OracleTest, NoProgressStops) {
  const std::vector<v1::Observation> obs = testing::TaskObservations("abs");
  ScriptedOracle oracle({[](const std::string&) {
    OracleVerdict v;
    v.kind = OracleVerdict::Kind::kFail;
    v.message = "assertion failed";
    return v;
  }});
  SynthesisResult r = Synth(obs, &oracle);
  EXPECT_EQ(oracle.asked().size(), 1u);
  EXPECT_THAT(r.oracle_verdict, HasSubstr("FAIL: assertion failed (no further pruning possible)"));
  EXPECT_THAT(r.jml, HasSubstr("\\result == (x <= 0 ? -x : x)"));
}

TEST(OracleTest, RoundsAreCapped) {
  const std::vector<v1::Observation> obs = testing::TaskObservations("abs");
  int calls = 0;
  std::vector<std::function<OracleVerdict(const std::string&)>> script;
  for (int k = 0; k < 5; ++k) {
    script.push_back([&calls, k](const std::string&) {
      ++calls;
      OracleVerdict v;
      v.kind = OracleVerdict::Kind::kFail;
      v.counterexamples.push_back(testing::AbsCall(1000 + k));
      return v;
    });
  }
  ScriptedOracle oracle(script);
  SynthesisOptions options;
  options.max_oracle_rounds = 3;
  SynthesisResult r = Synth(obs, &oracle, options);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(r.stats.oracle_rounds, 3);
  EXPECT_THAT(r.oracle_verdict, HasSubstr("not confirmed"));
}

TEST(OracleTest, HoudiniReachesAFixpointOnArbitraryImplementations) {
  // Random implementations of int f(int a, int b) over a 5x5 grid (some
  // throwing), recorded on a few calls: with the oracle the contract ends
  // up admitting every behaviour.
  std::mt19937 rng(4242);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int round = 0; round < 12; ++round) {
    int ca = pick(-2, 2), cb = pick(-2, 2), c0 = pick(-3, 3), threshold = pick(-3, 3);
    bool throws = pick(0, 1);
    auto call = [&](int a, int b) {
      testing::Call c("r.F", "f", "(II)I", {"a", "b"}, true);
      c.Arg(testing::I(a)).Arg(testing::I(b));
      if (throws && a + b < threshold) return c.Throws("java.lang.IllegalStateException").Build();
      return c.Returns(testing::I(ca * a + cb * b + c0 + (a > b ? 1 : 0))).Build();
    };
    std::vector<v1::Observation> behaviours, recorded;
    for (int a = -2; a <= 2; ++a) {
      for (int b = -2; b <= 2; ++b) behaviours.push_back(call(a, b));
    }
    for (int k = 0; k < 4; ++k) recorded.push_back(behaviours[pick(0, 24)]);
    testing::BehaviourOracle oracle(behaviours, /*with_spans=*/round % 2 == 0);
    SynthesisOptions options;
    options.max_oracle_rounds = 40;
    SynthesisResult r = Synth(recorded, &oracle, options);
    EXPECT_THAT(r.oracle_verdict, ::testing::StartsWith("PASS")) << r.jml;
    testing::ExpectAdmitsAll(r.jml, behaviours);
    if (HasFailure()) {
      ADD_FAILURE() << "round " << round;
      break;
    }
  }
}

TEST(OracleTest, UnknownStopsWithTheCurrentContract) {
  const std::vector<v1::Observation> obs = testing::TaskObservations("abs");
  ScriptedOracle oracle({[](const std::string&) {
    OracleVerdict v;
    v.kind = OracleVerdict::Kind::kUnknown;
    v.message = "solver gave up";
    return v;
  }});
  SynthesisResult r = Synth(obs, &oracle);
  EXPECT_EQ(r.oracle_verdict, "UNKNOWN: solver gave up");
  EXPECT_EQ(oracle.asked().size(), 1u);
}

TEST(OracleTest, AClauseTheValidatorRanOutOfTimeOnIsDropped) {
  // UNKNOWN because the check of one ensures clause timed out: that clause
  // goes (reported), the rest is checked again and passes.
  const std::vector<v1::Observation> obs = testing::TaskObservations("count");
  const std::string key = "(\\num_of int i; 0 <= i && i < a.length; a[i] == key)";
  ScriptedOracle oracle({[&](const std::string& contract) {
    return AtClause(contract, key, OracleVerdict::Kind::kUnknown,
                    "consistency: UNKNOWN (timeout after 60 s while checking ensures ...)");
  }});
  SynthesisResult r = Synth(obs, &oracle);
  ASSERT_EQ(oracle.asked().size(), 2u);
  EXPECT_THAT(oracle.asked()[0], HasSubstr(key));
  EXPECT_THAT(r.jml, Not(HasSubstr(key)));
  EXPECT_EQ(r.oracle_verdict, "PASS");
  EXPECT_THAT(r.hypotheses,
              Contains(AllOf(HasSubstr(key), HasSubstr("could not decide it in its time limit"))));
  testing::ExpectAdmitsAll(r.jml, obs);
}

}  // namespace
}  // namespace tracespec::synth
