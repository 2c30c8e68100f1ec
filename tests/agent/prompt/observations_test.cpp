// Tests for agent/prompt/observations.h: compact rendering and budgeted,
// deterministic summaries.
#include "agent/prompt/observations.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/agent/observation_builders.h"

namespace tracespec::prompt {
namespace {

using testing::Deposit;

TEST(ObservationsTest, RendersOneCallCompactly) {
  RenderedObservation r = RenderObservation(Deposit("bank.AccountTest#deposits", 5, 10, 15));
  EXPECT_EQ(r.body,
            "amount=5, this.balance=10, this.owner=\"ann\" -> returns 15; after: this.balance=15");
  EXPECT_EQ(r.outcome_key, "returns a value");
  // The redacted field is left out altogether.
  EXPECT_EQ(r.body.find("pin"), std::string::npos);
}

TEST(ObservationsTest, RendersExceptionsWithMessage) {
  RenderedObservation r = RenderObservation(Deposit(
      "bank.AccountTest#negative", -1, 10, 10, "java.lang.IllegalArgumentException", "neg\"ative"));
  EXPECT_EQ(r.body,
            "amount=-1, this.balance=10, this.owner=\"ann\" -> throws "
            "java.lang.IllegalArgumentException(\"neg\\\"ative\")");
  EXPECT_EQ(r.outcome_key, "throws java.lang.IllegalArgumentException");
}

TEST(ObservationsTest, RendersArraysAliasesAndUnrecordedObjects) {
  v1::Observation o;
  o.mutable_method()->set_class_name("util.Lists");
  o.mutable_method()->set_name("swap");
  o.mutable_method()->set_jvm_descriptor("([ILutil/Node;Lutil/Node;)V");
  o.mutable_method()->set_is_static(true);
  *o.add_args() = testing::RefValue(1);
  *o.add_args() = testing::RefValue(2);
  *o.add_args() = testing::RefValue(2);
  for (auto* graph : {o.mutable_pre(), o.mutable_post()}) {
    v1::ObjectState* array = graph->Add();
    array->set_id(1);
    array->set_class_name("[I");
    array->mutable_array()->set_element_descriptor("I");
    array->mutable_array()->set_length(5);
    *array->mutable_array()->add_elements() = testing::IntValue(graph == o.mutable_pre() ? 1 : 2);
    *array->mutable_array()->add_elements() = testing::IntValue(2);
    v1::ObjectState* node = graph->Add();
    node->set_id(2);
    node->set_class_name("util.Node");
    node->set_truncated(true);
  }
  o.mutable_outcome()->mutable_returned_void();
  RenderedObservation r = RenderObservation(o, {"a", "x", "y"});
  EXPECT_EQ(r.body,
            "a=[1, 2, ...], a.length=5, x=<util.Node>, y==x -> returns normally; after: "
            "a=[2, 2, ...]");
}

// send(StringBuilder to, UUID session, BigInteger amount, byte[] raw, StringBuilder note)
v1::Observation Send(const std::string& note) {
  v1::Observation o;
  o.set_test_id("m.MailerTest#send");
  o.mutable_method()->set_class_name("m.Mailer");
  o.mutable_method()->set_name("send");
  o.mutable_method()->set_jvm_descriptor(
      "(Ljava/lang/StringBuilder;Ljava/util/UUID;Ljava/math/BigInteger;[BLjava/lang/StringBuilder;)I");
  o.mutable_method()->set_is_static(true);
  for (const char* name : {"to", "session", "amount", "raw", "note"}) {
    o.mutable_method()->add_param_names(name);
  }
  for (uint64_t id : {1, 2, 3, 4, 5}) *o.add_args() = testing::RefValue(id);
  for (auto* graph : {o.mutable_pre(), o.mutable_post()}) {
    testing::AddBuilder(1, "jane.doe@example-corp.com", graph);
    testing::AddUuid(2, 0x1234567890abcdefLL, 0x0fedcba987654321LL, graph);
    testing::AddBigInteger(3, 1, {229956, 821493369}, graph);
    testing::AddBytes(4, "secret-bytes", graph);
    testing::AddBuilder(5, note, graph);
  }
  // The BigInteger caches its bit length during the call.
  o.mutable_post(3)->mutable_fields(0)->mutable_value()->set_int_value(51);
  o.mutable_outcome()->mutable_returned()->set_int_value(7);
  return o;
}

TEST(ObservationsTest, HoldersOfTextTheTestsDoNotDiscloseAreShownOnlyByShape) {
  StringDisclosure disclosure(v1::LITERALS_ONLY, {"send(sb, u, n, raw, new StringBuilder(\"ok\"));"});
  RenderedObservation r = RenderObservation(Send("ok"), {}, &disclosure);
  EXPECT_EQ(r.body,
            "to=<s1: StringBuilder, 25 chars>, session=<u1: UUID>, amount=<n1: BigInteger, 15 "
            "digits>, raw=<b1: byte[], 12 bytes>, note.coder=0, note.count=2, note.value=[111, "
            "107, 0, 0, 0, 0] -> returns 7");
  // None of the hidden holders' fields or elements, not even the cache the
  // call changed, is among the facts either.
  for (const auto& [path, value] : r.numbers) {
    EXPECT_TRUE(path.rfind("note", 0) == 0 || path == "raw.length" || path == "\\result") << path;
  }
  // Without a disclosure (the built-in synthesizer) everything is shown.
  EXPECT_NE(RenderObservation(Send("ok")).body.find("session.mostSigBits="), std::string::npos);
}

TEST(ObservationsTest, MergesEqualBehaviours) {
  std::vector<v1::Observation> all = {Deposit("T#a", 5, 10, 15), Deposit("T#a", 5, 10, 15),
                                      Deposit("T#b", 5, 10, 15), Deposit("T#c", 1, 0, 1)};
  ObservationSummary s = SummarizeObservations(all, "o", 10000);
  EXPECT_EQ(s.total, 4);
  EXPECT_EQ(s.distinct, 2);
  EXPECT_EQ(s.shown, 2);
  std::vector<std::string> lines = absl::StrSplit(s.text, '\n');
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("o1 [T#a x2, T#b]: amount=5", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("o2 [T#c]: amount=1", 0), 0u) << lines[1];
}

// Many ordinary deposits plus a few distinct cases: a tight budget keeps
// every outcome kind and the extremes, and says what it left out.
TEST(ObservationsTest, BudgetKeepsDistinctOutcomesAndExtremes) {
  std::vector<v1::Observation> all;
  for (int i = 1; i <= 300; ++i) {
    all.push_back(Deposit(absl::StrCat("bank.AccountTest#many", i % 7), i, 1000 + i, 1000 + 2 * i));
  }
  all.push_back(
      Deposit("bank.AccountTest#negative", -3, 50, 50, "java.lang.IllegalArgumentException"));
  all.push_back(
      Deposit("bank.AccountTest#overflow", 2147483647, 1, 1, "java.lang.ArithmeticException"));
  all.push_back(Deposit("bank.AccountTest#zero", 0, 7, 7));
  ObservationSummary s = SummarizeObservations(all, "o", 800);
  EXPECT_EQ(s.distinct, 303);
  EXPECT_LT(s.shown, s.distinct);
  EXPECT_LE(EstimateTokens(s.text), 800);
  EXPECT_NE(s.text.find("throws java.lang.IllegalArgumentException"), std::string::npos);
  EXPECT_NE(s.text.find("throws java.lang.ArithmeticException"), std::string::npos);
  EXPECT_NE(s.text.find("amount=0,"), std::string::npos);           // special value
  EXPECT_NE(s.text.find("amount=2147483647,"), std::string::npos);  // largest
  EXPECT_NE(s.text.find("amount=-3,"), std::string::npos);          // smallest
  EXPECT_NE(s.text.find("this.balance=1300,"), std::string::npos);  // largest balance
  EXPECT_NE(s.text.find("more distinct behaviours omitted"), std::string::npos);
  EXPECT_NE(s.text.find("amount in [-3, 2147483647]"), std::string::npos);
  // Deterministic.
  EXPECT_EQ(SummarizeObservations(all, "o", 800).text, s.text);
}

TEST(ObservationsTest, UnrecordedOutcomesAreSaidPlainly) {
  v1::Observation o = Deposit("T#a", 5, 10, 15);
  o.mutable_outcome()->mutable_returned()->Clear();
  EXPECT_TRUE(
      absl::StrContains(RenderObservation(o).body, "-> returns a value that was not recorded"));
  o.clear_outcome();
  EXPECT_TRUE(absl::StrContains(RenderObservation(o).body, "-> outcome not recorded"));
}

TEST(ObservationsTest, ShortestFloatsAndChars) {
  v1::Observation o;
  o.mutable_method()->set_name("f");
  o.mutable_method()->set_is_static(true);
  v1::Value d;
  d.set_double_value(0.1);
  v1::Value f;
  f.set_float_value(1.5f);
  v1::Value c;
  c.set_char_value('\n');
  v1::Value l;
  l.set_long_value(-7);
  *o.add_args() = d;
  *o.add_args() = f;
  *o.add_args() = c;
  *o.add_args() = l;
  v1::Value nan;
  nan.set_double_value(std::numeric_limits<double>::quiet_NaN());
  *o.mutable_outcome()->mutable_returned() = nan;
  EXPECT_EQ(RenderObservation(o, {"d", "f", "c", "l"}).body,
            "d=0.1, f=1.5f, c='\\n', l=-7L -> returns Double.NaN");
}

}  // namespace
}  // namespace tracespec::prompt
