// Tests for agent/synth/synthesizer.h without an oracle: contracts for
// method shapes in the spirit of SpecGenBench parse, type-check, admit every
// observation and contain the key clause; weak evidence becomes hypotheses,
// not clauses; counterexamples and banned clauses prune; output is
// deterministic.
#include "agent/synth/synthesizer.h"

#include <random>

#include "agent/prompt/answer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/synth/synth_testing.h"
#include "tests/agent/synth/tasks.h"

namespace tracespec::synth {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::SynthTask;

SynthesisResult Synth(const std::vector<v1::Observation>& observations,
                    const SynthesisOptions& options = {},
                    const std::vector<v1::Observation>& counterexamples = {},
                    const std::vector<std::string>& banned = {}) {
  SynthesisInput in;
  in.observations = observations;
  in.counterexamples = counterexamples;
  in.banned = banned;
  absl::StatusOr<SynthesisResult> r = Synthesize(in, options);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : SynthesisResult{};
}

class TaskTest : public ::testing::TestWithParam<SynthTask> {};

TEST_P(TaskTest, ContractChecksAdmitsEveryObservationAndHasTheKeyClauses) {
  const SynthTask& task = GetParam();
  SynthesisResult r = Synth(task.observations);
  testing::ExpectAdmitsAll(r.jml, task.observations);
  for (const std::string& key : task.key_clauses) {
    EXPECT_THAT(r.jml, HasSubstr(key)) << task.name << ":\n" << r.jml;
  }
  EXPECT_EQ(r.stats.observations, static_cast<int>(task.observations.size()));
  EXPECT_EQ(r.stats.clauses, static_cast<int>(r.clauses.size()));
  EXPECT_FALSE(r.stats.budget_exhausted);
  for (const SynthesizedClause& c : r.clauses) {
    EXPECT_THAT(r.jml, HasSubstr(c.text));
    EXPECT_GT(c.line, 0);
  }
  // Same inputs, same bytes.
  SynthesisResult again = Synth(task.observations);
  EXPECT_EQ(again.jml, r.jml);
  EXPECT_EQ(again.hypotheses, r.hypotheses);
  EXPECT_EQ(AnswerJson(again), AnswerJson(r));
}

INSTANTIATE_TEST_SUITE_P(Shapes, TaskTest, ::testing::ValuesIn(testing::SynthTasks()),
                         [](const ::testing::TestParamInfo<SynthTask>& info) {
                           return info.param.name;
                         });

TEST(SynthesizerTest, AnswerIsTheStructuredSchemaTheParserReads) {
  SynthesisResult r = Synth(testing::TaskObservations("deposit"));
  std::string json = AnswerJson(r);
  absl::StatusOr<prompt::ContractAnswer> answer = prompt::ParseAnswer(json);
  ASSERT_TRUE(answer.ok()) << answer.status();
  EXPECT_EQ(answer->format, prompt::AnswerFormat::kJson);
  EXPECT_EQ(answer->jml + "\n", r.jml);
  EXPECT_EQ(answer->hypotheses, r.hypotheses);
}

TEST(SynthesizerTest, ExactFormsAreFoundOnlyWhereEveryObservationAgrees) {
  // Kelvin with one observation off by one ulp: no exact form survives.
  std::vector<v1::Observation> obs = {testing::KelvinCall(0.0), testing::KelvinCall(25.0),
                                      testing::KelvinCall(-40.0)};
  *obs[2].mutable_outcome()->mutable_returned() =
      testing::D(std::nextafter(-40.0 + 273.15, 1000.0));
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, Not(HasSubstr("273.15")));
  testing::ExpectAdmitsAll(r.jml, obs);
}

TEST(SynthesizerTest, SolvedLinearAndFloatingForms) {
  std::vector<v1::Observation> lin;
  for (auto [a, b] : std::vector<std::pair<int, int>>{{1, 2}, {5, 3}, {4, 4}, {-1, -7}, {0, 9}}) {
    lin.push_back(testing::Call("m.M", "f", "(II)I", {"a", "b"}, true)
                      .Arg(testing::I(a))
                      .Arg(testing::I(b))
                      .Returns(testing::I(3 * a - 2 * b + 7)));
  }
  EXPECT_THAT(Synth(lin).jml, HasSubstr("ensures \\result == 3 * a - 2 * b + 7;"));
  std::vector<v1::Observation> celsius;
  for (double f : {32.0, 212.0, -40.0, 98.6, 0.0}) {
    celsius.push_back(testing::Call("m.T", "toCelsius", "(D)D", {"f"}, true)
                          .Arg(testing::D(f))
                          .Returns(testing::D((f - 32) * 5 / 9)));
  }
  SynthesisResult c = Synth(celsius);
  EXPECT_THAT(c.jml, HasSubstr("ensures \\result == (f - 32.0) * 5 / 9;"));
  testing::ExpectAdmitsAll(c.jml, celsius);
}

// How many of the result's clauses come from `family`.
int ClausesOf(const SynthesisResult& r, const std::string& family) {
  int n = 0;
  for (const SynthesizedClause& c : r.clauses) n += c.family == family;
  return n;
}

TEST(SynthesizerTest, DivisibilityFormulaNeedsEnoughDistinctCallsThatAgree) {
  // One atom from four distinct inputs; not from three.
  auto third = [](int n) {
    return testing::Call("m.N", "third", "(I)Z", {"n"}, true)
        .Arg(testing::I(n))
        .Returns(testing::B(n % 3 == 0));
  };
  SynthesisResult one = Synth({third(3), third(4), third(6), third(7)});
  EXPECT_THAT(one.jml, HasSubstr("ensures \\result <==> n % 3 == 0;"));
  EXPECT_EQ(ClausesOf(Synth({third(3), third(4), third(7)}), "divisibility"), 0);
  // Leap years need three atoms: six distinct years at least. These five
  // admit no formula of one or two atoms.
  std::vector<v1::Observation> five = {testing::LeapCall(4), testing::LeapCall(1900),
                                       testing::LeapCall(2000), testing::LeapCall(2023),
                                       testing::LeapCall(2026)};
  EXPECT_EQ(ClausesOf(Synth(five), "divisibility"), 0) << Synth(five).jml;
  five.push_back(testing::LeapCall(2024));
  EXPECT_THAT(Synth(five).jml,
              HasSubstr("ensures \\result <==> year % 4 == 0 && year % 100 != 0 || year % 400 == "
                        "0;"));
  // One year seen with both results: no formula of the year.
  std::vector<v1::Observation> contradicting = testing::TaskObservations("isLeap");
  v1::Observation wrong = testing::LeapCall(2024);
  *wrong.mutable_outcome()->mutable_returned() = testing::B(false);
  contradicting.push_back(wrong);
  SynthesisResult none = Synth(contradicting);
  EXPECT_EQ(ClausesOf(none, "divisibility"), 0) << none.jml;
  EXPECT_THAT(none.jml, Not(HasSubstr("% 400")));
}

TEST(SynthesizerTest, ClampedDifferenceOfMinAndMaxNeedsFourCallsThatAgree) {
  std::vector<v1::Observation> obs = testing::TaskObservations("overlap");
  ASSERT_EQ(obs.size(), 6u);
  EXPECT_EQ(ClausesOf(Synth({obs[0], obs[1], obs[2]}), "min-max"), 0);
  // One result off by one: nothing of the kind fits.
  std::vector<v1::Observation> off = obs;
  *off[1].mutable_outcome()->mutable_returned() = testing::I(3);
  SynthesisResult none = Synth(off);
  EXPECT_EQ(ClausesOf(none, "min-max"), 0) << none.jml;
  EXPECT_THAT(none.jml, Not(HasSubstr("Math.min")));
  // Without a disjoint pair the clamp is not evidenced: the bare difference.
  std::vector<v1::Observation> overlapping = {
      testing::OverlapCall(0, 5, 2, 8), testing::OverlapCall(0, 10, 4, 6),
      testing::OverlapCall(2, 8, 0, 5), testing::OverlapCall(-10, -2, -7, 0),
      testing::OverlapCall(1, 9, 3, 4)};
  EXPECT_THAT(Synth(overlapping).jml,
              HasSubstr("ensures \\result == Math.min(aEnd, bEnd) - Math.max(aStart, bStart);"));
}

TEST(SynthesizerTest, BitwiseAndCubeForms) {
  auto calls = [](const char* name, int (*f)(int, int)) {
    std::vector<v1::Observation> out;
    for (auto [a, b] : std::vector<std::pair<int, int>>{{12, 10}, {5, 3}, {0, 9}, {-1, 6}, {7, 7}}) {
      out.push_back(testing::Call("m.Bits", name, "(II)I", {"a", "b"}, true)
                        .Arg(testing::I(a))
                        .Arg(testing::I(b))
                        .Returns(testing::I(f(a, b))));
    }
    return out;
  };
  std::vector<v1::Observation> x = calls("xor", [](int a, int b) { return a ^ b; });
  SynthesisResult rx = Synth(x);
  EXPECT_THAT(rx.jml, HasSubstr("ensures \\result == (a ^ b);"));
  testing::ExpectAdmitsAll(rx.jml, x);
  std::vector<v1::Observation> n = calls("and", [](int a, int b) { return a & b; });
  EXPECT_THAT(Synth(n).jml, HasSubstr("ensures \\result == (a & b);"));
  std::vector<v1::Observation> o = calls("or", [](int a, int b) { return a | b; });
  EXPECT_THAT(Synth(o).jml, HasSubstr("ensures \\result == (a | b);"));
  std::vector<v1::Observation> cube;
  for (int v : {2, -3, 0, 5, 11}) {
    cube.push_back(testing::Call("m.Bits", "cube", "(I)I", {"x"}, true)
                       .Arg(testing::I(v))
                       .Returns(testing::I(v * v * v)));
  }
  SynthesisResult rc = Synth(cube);
  EXPECT_THAT(rc.jml, HasSubstr("ensures \\result == x * x * x;"));
  testing::ExpectAdmitsAll(rc.jml, cube);
}

TEST(SynthesizerTest, WrapAroundIsJavaArithmetic) {
  std::vector<v1::Observation> obs;
  for (int x : {5, -3, 0, 2147483647, -2147483647 - 1}) {
    obs.push_back(testing::Call("m.M", "inc", "(I)I", {"x"}, true)
                      .Arg(testing::I(x))
                      .Returns(testing::I(static_cast<int32_t>(static_cast<uint32_t>(x) + 1u))));
  }
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, HasSubstr("ensures \\result == x + 1;"));
  EXPECT_THAT(r.jml, Not(HasSubstr("\\result > x")));  // false at Integer.MAX_VALUE
}

TEST(SynthesizerTest, WeakEvidenceBecomesAHypothesis) {
  // One call shows \result == x + 1 but nothing else does.
  std::vector<v1::Observation> obs = {
      testing::Call("m.M", "inc", "(I)I", {"x"}, true).Arg(testing::I(5)).Returns(testing::I(6))};
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, Not(HasSubstr("x + 1")));
  EXPECT_THAT(r.hypotheses, Contains(HasSubstr("\\result == x + 1")));
  testing::ExpectAdmitsAll(r.jml, obs);
}

TEST(SynthesizerTest, GuardBoundariesTheEvidenceDoesNotDecideAreHypotheses) {
  // Only amount == -3 failed: amount <= 0 and amount < 0 both separate.
  std::vector<v1::Observation> obs = {testing::DepositCall(10, 0, 0), testing::DepositCall(5, 10, 10),
                                      testing::DepositCall(-3, 15, 315)};
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, HasSubstr("requires amount <= 0;"));
  EXPECT_THAT(r.hypotheses, Contains(AllOf(HasSubstr("amount <= 0"), HasSubstr("amount < 0"))));
  // Failures on one value give an equality guard.
  std::vector<v1::Observation> zero = {testing::DivideCall(7, 2), testing::DivideCall(9, -3),
                                       testing::DivideCall(1, 0)};
  EXPECT_THAT(Synth(zero).jml, HasSubstr("requires b == 0;"));
}

// An exceptional case about whose exception nothing more is known says so
// with signals_only alone: `signals (E e) true;` beside it would say nothing.
TEST(SynthesizerTest, NoSignalsTrueBesideSignalsOnly) {
  std::vector<v1::Observation> obs = {testing::DivideCall(7, 2), testing::DivideCall(9, -3),
                                      testing::DivideCall(1, 0), testing::DivideCall(5, 0)};
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, HasSubstr("exceptional_behavior\n//@   requires b == 0;"));
  EXPECT_THAT(r.jml, HasSubstr("signals_only ArithmeticException;"));
  EXPECT_THAT(r.jml, Not(HasSubstr(" e) true;")));
  testing::ExpectAdmitsAll(r.jml, obs);
}

TEST(SynthesizerTest, UnrecordedValuesAreNeverAsserted) {
  // The checksum is redacted: nothing is claimed about it, the balance
  // relation still is.
  std::vector<v1::Observation> obs;
  for (auto [amount, balance] : std::vector<std::pair<int, int>>{{10, 0}, {5, 10}, {7, 15}}) {
    v1::Observation o = testing::DepositCall(amount, balance, 0);
    for (auto* states : {o.mutable_pre(), o.mutable_post()}) {
      *(*states)[0].mutable_fields(1)->mutable_value() = testing::Hidden();
    }
    obs.push_back(o);
  }
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, HasSubstr("ensures balance == \\old(balance) + amount;"));
  EXPECT_THAT(r.jml, Not(HasSubstr("checksum ==")));
  testing::ExpectAdmitsAll(r.jml, obs);
}

TEST(SynthesizerTest, CounterexamplesPruneLikeObservations) {
  // Only calls with a >= b: the evidence says \result == a.
  std::vector<v1::Observation> obs = {testing::MaxCall(5, 3), testing::MaxCall(4, 4),
                                      testing::MaxCall(9, -1)};
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, HasSubstr("ensures \\result == a;"));
  SynthesisResult pruned = Synth(obs, {}, {testing::MaxCall(1, 2)});
  EXPECT_THAT(pruned.jml, Not(HasSubstr("ensures \\result == a;")));
  EXPECT_THAT(pruned.jml, HasSubstr("ensures \\result == (a <= b ? b : a);"));
  EXPECT_EQ(pruned.stats.counterexamples, 1);
}

TEST(SynthesizerTest, BannedClausesGiveWayToTheNextBest) {
  const std::vector<v1::Observation> obs = testing::TaskObservations("deposit");
  SynthesisResult r = Synth(obs, {}, {}, {"\\result == balance"});
  EXPECT_THAT(r.jml, Not(HasSubstr("ensures \\result == balance;")));
  EXPECT_THAT(r.jml, HasSubstr("ensures \\result == \\old(balance) + amount;"));
  testing::ExpectAdmitsAll(r.jml, obs);
  // A banned guard: the next separating predicate takes its place.
  SynthesisResult g = Synth(obs, {}, {}, {"//@ requires amount<=0;"});
  EXPECT_THAT(g.jml, Not(HasSubstr("requires amount <= 0;")));
  EXPECT_THAT(g.jml, HasSubstr("requires amount < 0"));
}

TEST(SynthesizerTest, NullArgumentsAreDeclaredNullable) {
  std::vector<v1::Observation> obs = {
      testing::Call("m.M", "len", "([I)I", {"a"}, true).IntArray({1, 2}).Returns(testing::I(2)),
      testing::Call("m.M", "len", "([I)I", {"a"}, true).IntArray({}).Returns(testing::I(0)),
      testing::Call("m.M", "len", "([I)I", {"a"}, true)
          .Arg(testing::Null())
          .Throws("java.lang.NullPointerException")};
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, HasSubstr("requires a == null;"));
  EXPECT_THAT(r.jml, HasSubstr("ensures \\result == a.length;"));
  EXPECT_THAT(r.hypotheses, Contains(HasSubstr("declares it nullable")));
  // JML's default is non_null: without the declaration the null call would
  // be outside every case (the validator's coverage check rejects it).
  EXPECT_THAT(r.jml, EndsWith("\npublic static int len(/*@ nullable @*/ int[] a);\n"));
  testing::ExpectAdmitsAll(r.jml, obs);
  // Nothing was null: no declaration.
  SynthesisResult plain = Synth({obs[0], obs[1]});
  EXPECT_THAT(plain.jml, Not(HasSubstr("nullable")));
  EXPECT_THAT(plain.jml, Not(HasSubstr("len(")));
}

TEST(SynthesizerTest, ExceptionsWithoutASeparatingGuardOnlyPermitTheException) {
  // The same input once returns and once throws (state not recorded).
  std::vector<v1::Observation> obs = {
      testing::Call("m.M", "next", "(I)I", {"x"}, true).Arg(testing::I(1)).Returns(testing::I(2)),
      testing::Call("m.M", "next", "(I)I", {"x"}, true).Arg(testing::I(2)).Returns(testing::I(3)),
      testing::Call("m.M", "next", "(I)I", {"x"}, true)
          .Arg(testing::I(1))
          .Throws("java.lang.IllegalStateException")};
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, HasSubstr("public behavior"));
  EXPECT_THAT(r.jml, HasSubstr("signals_only IllegalStateException;"));
  EXPECT_THAT(r.jml, HasSubstr("ensures \\result == x + 1;"));
  EXPECT_THAT(r.hypotheses, Contains(HasSubstr("could not be told apart")));
  testing::ExpectAdmitsAll(r.jml, obs);
}

TEST(SynthesizerTest, AlwaysThrowingMethods) {
  std::vector<v1::Observation> obs = {
      testing::Call("m.M", "no", "(I)V", {"x"}, true)
          .Arg(testing::I(1))
          .Throws("java.lang.UnsupportedOperationException"),
      testing::Call("m.M", "no", "(I)V", {"x"}, true)
          .Arg(testing::I(2))
          .Throws("java.lang.UnsupportedOperationException")};
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, Not(HasSubstr("normal_behavior")));
  EXPECT_THAT(r.jml, HasSubstr("signals_only UnsupportedOperationException;"));
  EXPECT_THAT(r.jml, Not(HasSubstr("requires")));
  testing::ExpectAdmitsAll(r.jml, obs);
}

TEST(SynthesizerTest, BoundVariablesDoNotShadowParameters) {
  // Parameters named i and j: the quantifiers use other names.
  std::vector<v1::Observation> obs;
  for (auto [a, i] : std::vector<std::pair<std::vector<int>, int>>{
           {{1, 5, 3}, 5}, {{7, 7}, 7}, {{}, 1}, {{4, 4, 1, 8}, 9}, {{2, 1, 2}, 2}}) {
    int n = 0;
    for (int v : a) n += v == i;
    obs.push_back(testing::Call("m.M", "count", "([II)I", {"j", "i"}, true)
                      .IntArray(a)
                      .Arg(testing::I(i))
                      .Returns(testing::I(n)));
  }
  SynthesisResult r = Synth(obs);
  EXPECT_THAT(r.jml, HasSubstr("ensures \\result == (\\num_of int d; 0 <= d && d < j.length; "
                               "j[d] == i);"));
  testing::ExpectAdmitsAll(r.jml, obs);
}

TEST(SynthesizerTest, WorkBudgetIsDeterministic) {
  SynthesisOptions tiny;
  tiny.work_budget = 200;
  const std::vector<v1::Observation> obs = testing::TaskObservations("deposit");
  SynthesisResult a = Synth(obs, tiny);
  SynthesisResult b = Synth(obs, tiny);
  EXPECT_TRUE(a.stats.budget_exhausted);
  EXPECT_THAT(a.hypotheses, Contains(HasSubstr("budget")));
  EXPECT_EQ(a.jml, b.jml);
  testing::ExpectAdmitsAll(a.jml, obs);
}

// An array of objects as the result (an enum's values(), called behind
// every switch on the enum) gets no element terms; its fixed length once
// marked the last array term a tuple, of an empty list (a crash).
TEST(SynthesizerTest, AnArrayOfObjectsAsTheResultIsNoTuple) {
  std::vector<v1::Observation> obs;
  for (int k = 0; k < 3; ++k) {
    testing::Call c("e.Box", "values", "()[Ljava/lang/Integer;", {}, true);
    v1::Observation o = c;
    v1::ObjectState* array = o.add_post();
    array->set_id(10);
    array->set_class_name("[Ljava/lang/Integer;");
    array->mutable_array()->set_element_descriptor("Ljava/lang/Integer;");
    array->mutable_array()->set_length(2);
    o.mutable_outcome()->mutable_returned()->set_ref(10);
    obs.push_back(o);
  }
  SynthesisResult r = Synth(obs);
  testing::ExpectAdmitsAll(r.jml, obs);
  EXPECT_EQ(Synth(obs).jml, r.jml);
}

TEST(SynthesizerTest, ObservationsOfOtherMethodsAreIgnored) {
  std::vector<v1::Observation> obs = testing::TaskObservations("abs");
  obs.push_back(testing::MaxCall(1, 2));
  SynthesisInput in;
  in.observations = obs;
  in.signature.class_name = "m.MathUtil";
  in.signature.method_name = "abs";
  in.signature.jvm_descriptor = "(I)I";
  in.signature.params = {{"x", "int"}};
  in.signature.is_static = true;
  auto r = Synthesize(in);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->stats.observations, 5);
}

TEST(SynthesizerTest, RandomBehaviourAlwaysGivesACheckedAdmittingContract) {
  // Arbitrary (seeded) results, exceptions and array changes: whatever the
  // templates find must check and admit every observation.
  std::mt19937 rng(20260512);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int round = 0; round < 40; ++round) {
    std::vector<v1::Observation> obs;
    int calls = pick(1, 8);
    for (int k = 0; k < calls; ++k) {
      testing::Call c("r.R", "m", "([IIJ)I", {"a", "x", "y"}, false);
      std::vector<int> a(pick(0, 4));
      for (int& v : a) v = pick(-3, 3);
      std::vector<int> after = a;
      if (!after.empty() && pick(0, 3) == 0) after[0] = pick(-3, 3);
      c.IntArray(a, &after).Arg(testing::I(pick(-5, 5))).Arg(testing::L(pick(-2, 2)));
      int f = pick(-2, 2);
      c.Receiver({{"f", {"I", testing::I(f)}}, {"g", {"D", testing::D(pick(0, 3) * 0.5)}}},
                 {{"f", {"I", testing::I(pick(0, 1) ? f : pick(-2, 2))}},
                  {"g", {"D", testing::D(pick(0, 3) * 0.5)}}});
      switch (pick(0, 4)) {
        case 0:
          c.Throws(pick(0, 1) ? "java.lang.IllegalArgumentException" : "r.Oops");
          break;
        default:
          c.Returns(testing::I(pick(-4, 4)));
      }
      obs.push_back(c);
    }
    SynthesisResult r = Synth(obs);
    testing::ExpectAdmitsAll(r.jml, obs);
    EXPECT_EQ(Synth(obs).jml, r.jml);
    if (HasFailure()) {
      ADD_FAILURE() << "round " << round;
      break;
    }
  }
  // Static, floating point, booleans, strings, double arrays.
  const double kValues[] = {0.0, -0.0, 0.5, -1.25, 273.15, 1e300};
  for (int round = 0; round < 40; ++round) {
    std::vector<v1::Observation> obs;
    int calls = pick(1, 8);
    for (int k = 0; k < calls; ++k) {
      testing::Call c("r.S", "h", "(DZLjava/lang/String;[D)D", {"d", "z", "s", "v"}, true);
      std::vector<double> v(pick(0, 3));
      for (double& e : v) e = kValues[pick(0, 5)];
      c.Arg(testing::D(kValues[pick(0, 5)]))
          .Arg(testing::B(pick(0, 1)))
          .Arg(pick(0, 4) ? testing::S(std::string(pick(0, 3), 'q')) : testing::Null())
          .DoubleArray(v);
      if (pick(0, 4) == 0) {
        c.Throws("java.lang.ArithmeticException");
      } else {
        c.Returns(testing::D(kValues[pick(0, 5)]));
      }
      obs.push_back(c);
    }
    SynthesisResult r = Synth(obs);
    testing::ExpectAdmitsAll(r.jml, obs);
    if (HasFailure()) {
      ADD_FAILURE() << "static round " << round;
      break;
    }
  }
}

TEST(SynthesizerTest, BadInputIsAnError) {
  SynthesisInput empty;
  EXPECT_EQ(Synthesize(empty).status().code(), absl::StatusCode::kFailedPrecondition);
  SynthesisInput other;
  other.observations = {testing::MaxCall(1, 2)};
  other.signature.class_name = "m.MathUtil";
  other.signature.method_name = "min";
  other.signature.jvm_descriptor = "(II)I";
  auto r = Synthesize(other);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("m.MathUtil#min(II)I"));
  SynthesisInput names;
  names.observations = {testing::MaxCall(1, 2)};
  names.signature.class_name = "m.MathUtil";
  names.signature.method_name = "max";
  names.signature.jvm_descriptor = "(II)I";
  names.signature.params = {{"a", "int"}};  // one name for two parameters
  EXPECT_FALSE(Synthesize(names).ok());
}

}  // namespace
}  // namespace tracespec::synth
