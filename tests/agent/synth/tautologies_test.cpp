// Tests for agent/synth/tautologies.h with the validator's decision
// (check::IsTautology, on Z3): clauses parsed and type-checked from JML text
// for a method are dropped when they hold whatever values their terms take,
// and kept otherwise — also when a construct cannot be read.
#include "agent/synth/tautologies.h"

#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/synth/synth_testing.h"
#include "tests/testing/call_builder.h"
#include "validator/check/tautology.h"

namespace tracespec::synth {
namespace {

using testing::Call;
using testing::I;

// `boolean f(int x, int y, boolean a, double d, int[] arr, String s)` and
// `int g(int x, int y)` of a class with an int field m.
std::vector<v1::Observation> Method(const std::string& name, const std::string& descriptor,
                                    std::vector<std::string> params) {
  return {Call("m.M", name, descriptor, std::move(params), /*is_static=*/false)
              .Receiver({{"m", {"I", I(1)}}}, {{"m", {"I", I(1)}}})
              .Build()};
}

const std::vector<v1::Observation>& F() {
  static const auto* f = new std::vector<v1::Observation>(
      Method("f", "(IIZD[ILjava/lang/String;)Z", {"x", "y", "a", "d", "arr", "s"}));
  return *f;
}
const std::vector<v1::Observation>& G() {
  static const auto* g = new std::vector<v1::Observation>(Method("g", "(II)I", {"x", "y"}));
  return *g;
}

// `predicate` (an ensures clause of the method of `method`) without its
// tautological conjuncts; "<error>" when it does not type-check.
std::optional<std::string> Contentful(const std::vector<v1::Observation>& method,
                                      const std::string& predicate) {
  testing::CheckedContract c = testing::CheckContract(
      "//@ public normal_behavior\n//@   ensures " + predicate + ";\n", method);
  if (!c.error.empty()) return "<error> " + c.error;
  const jml::Clause& clause = c.spec.cases.at(0).clauses.at(0);
  return WithoutTautologies(*clause.pred, check::IsTautology);
}

TEST(TautologiesTest, TautologiesAreDropped) {
  for (const char* p : {
           "a ==> \\result ==> a",
           "x != 0 ==> \\result ==> x != 0",
           "\\old(m) != 0 ==> \\result ==> \\old(m) != 0",
           "x < y || x >= y",
           "!(x < y) <==> y <= x",
           "s == null || s != null",
           "arr[0] == arr[0]",
           "s.length() == s.length()",
           // Java's int arithmetic wraps around.
           "x + 1 > x || x == Integer.MAX_VALUE",
           "(\\forall int i; 0 <= i && i < x; arr[i] > 0) ==> "
           "(\\forall int i; 0 <= i && i < x; arr[i] > 0)",
       }) {
    EXPECT_EQ(Contentful(F(), p), std::nullopt) << p;
  }
  EXPECT_EQ(Contentful(G(), "\\result == \\result"), std::nullopt);
  EXPECT_EQ(Contentful(G(), "(x < y || x >= y) && \\result == \\result"), std::nullopt);
}

TEST(TautologiesTest, ClausesThatSaySomethingAreKept) {
  for (const char* p : {
           "\\result ==> x != 0",
           "\\result <==> a",
           // Not with wrap-around.
           "x + 1 > x",
           // Not for NaN.
           "d < y || d >= y",
           "d == d",
           // A call may answer a fresh object each time: not read, kept
           // (though `P || true` is one).
           "s.substring(1) == s.substring(1) || true",
       }) {
    std::optional<std::string> kept = Contentful(F(), p);
    ASSERT_TRUE(kept.has_value()) << p;
    EXPECT_THAT(*kept, ::testing::Not(::testing::StartsWith("<error>"))) << p;
    EXPECT_EQ(*kept, Contentful(F(), *kept)) << p;  // printed, unchanged
  }
  EXPECT_EQ(Contentful(G(), "\\result == x + 1"), "\\result == x + 1");
}

TEST(TautologiesTest, OnlyTheTautologicalConjunctsOfAConjunctionAreDropped) {
  EXPECT_EQ(Contentful(G(), "\\result == x + 1 && (x < y || x >= y)"), "\\result == x + 1");
  EXPECT_EQ(Contentful(G(), "(x < y || x >= y) && (\\result > 0 || x == 0) && y == y"),
            "\\result > 0 || x == 0");
  EXPECT_EQ(Contentful(G(), "(\\result > 0 || x == 0) && y == y && (\\result < 9 || x < 0)"),
            "(\\result > 0 || x == 0) && (\\result < 9 || x < 0)");
}

TEST(TautologiesTest, WithoutADecisionNothingIsDropped) {
  testing::CheckedContract c = testing::CheckContract(
      "//@ public normal_behavior\n//@   ensures \\result == \\result;\n", G());
  ASSERT_EQ(c.error, "");
  EXPECT_EQ(WithoutTautologies(*c.spec.cases.at(0).clauses.at(0).pred, nullptr),
            "\\result == \\result");
}

}  // namespace
}  // namespace tracespec::synth
