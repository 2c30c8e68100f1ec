// Tests for observer/noninterference.h: what differs between the runs is
// withheld, and with which reason.
#include "observer/noninterference.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec::observer {
namespace {

v1::Observation Call(const std::string& test, uint64_t sequence, const std::string& name,
                     int arg, int returned, const std::string& field) {
  v1::Observation o;
  o.set_test_id(test);
  o.set_sequence(sequence);
  o.mutable_method()->set_class_name("a.B");
  o.mutable_method()->set_name(name);
  o.mutable_method()->set_jvm_descriptor("(I)I");
  o.add_args()->set_int_value(arg);
  o.mutable_outcome()->mutable_returned()->set_int_value(returned);
  v1::ObjectState* state = o.add_post();
  state->set_id(1);
  state->set_class_name("a.B");
  v1::Field* f = state->add_fields();
  f->set_name("blob");
  f->mutable_value()->set_string_value(field);
  return o;
}

TEST(NoninterferenceTest, EqualRunsWithholdNothing) {
  std::vector<v1::Observation> a = {Call("T#t", 1, "f", 1, 2, "x")};
  std::vector<v1::Observation> b = a;
  Withheld w = WithholdDifferences(&a, b, nullptr);
  EXPECT_FALSE(w.any());
  EXPECT_EQ(a[0].outcome().returned().int_value(), 2);
}

TEST(NoninterferenceTest, ADifferenceIsDependentUnlessTheSubstitutedRunsDifferToo) {
  std::vector<v1::Observation> a = {Call("T#t", 1, "f", 1, 2, "x")};
  std::vector<v1::Observation> b = {Call("T#t", 5, "f", 1, 3, "y")};
  std::vector<v1::Observation> c = {Call("T#t", 5, "f", 1, 4, "y")};
  Withheld w = WithholdDifferences(&a, b, &c);
  EXPECT_EQ(w.dependent, 1);
  EXPECT_EQ(w.nondeterministic, 1);
  EXPECT_EQ(a[0].args(0).int_value(), 1);
  EXPECT_EQ(a[0].outcome().returned().redacted().reason(), kNondeterministic);
  EXPECT_EQ(a[0].post(0).fields(0).value().redacted().reason(), kDependsOnDenied);
}

TEST(NoninterferenceTest, CallsAlignPerTestAndADifferentSequenceWithholdsTheTest) {
  std::vector<v1::Observation> a = {Call("T#u", 3, "f", 7, 7, "z"), Call("T#t", 1, "f", 1, 2, "x"),
                                    Call("T#t", 2, "g", 1, 2, "x")};
  // B ran T#t without its call of g; T#u's call comes first in B.
  std::vector<v1::Observation> b = {Call("T#u", 1, "f", 7, 7, "z"), Call("T#t", 2, "f", 1, 2, "x")};
  Withheld w = WithholdDifferences(&a, b, nullptr);
  EXPECT_THAT(w.tests, ::testing::ElementsAre("T#t"));
  EXPECT_EQ(w.dependent, 6);  // Arg, result and field of both calls of T#t.
  EXPECT_EQ(a[0].outcome().returned().int_value(), 7);
  EXPECT_EQ(a[2].args(0).redacted().reason(), kDependsOnDenied);
}

TEST(NoninterferenceTest, ValuesThePolicyWithheldKeepTheirReason) {
  std::vector<v1::Observation> a = {Call("T#t", 1, "f", 1, 2, "x")};
  a[0].mutable_args(0)->mutable_redacted();
  std::vector<v1::Observation> b = {Call("T#t", 1, "f", 9, 2, "x")};
  Withheld w = WithholdDifferences(&a, b, nullptr);
  EXPECT_FALSE(w.any());
  EXPECT_EQ(a[0].args(0).redacted().reason(), "");
}

}  // namespace
}  // namespace tracespec::observer
