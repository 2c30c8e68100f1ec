// The taint set: what it takes in, and what Scrub replaces.
#include "observer/probe/taint.h"

#include <algorithm>

#include "gtest/gtest.h"
#include "observer/probe/substitute_value.h"

namespace tracespec::probe {
namespace {

v1::ObjectState* AddState(google::protobuf::RepeatedPtrField<v1::ObjectState>* states,
                          uint64_t id) {
  v1::ObjectState* s = states->Add();
  s->set_id(id);
  return s;
}

v1::Value* AddField(v1::ObjectState* state, const std::string& name) {
  v1::Field* f = state->add_fields();
  f->set_name(name);
  return f->mutable_value();
}

TEST(TaintTest, NumbersAreTaintedOnlyOutsideTheBound) {
  EXPECT_FALSE(DistinctiveNumber(1024));
  EXPECT_FALSE(DistinctiveNumber(-1024));
  EXPECT_FALSE(DistinctiveNumber(0.5));
  EXPECT_TRUE(DistinctiveNumber(1025));
  EXPECT_TRUE(DistinctiveNumber(-1025));
  TaintSet taint;
  taint.AddIntegral(42);
  taint.AddFloating(3.5);
  EXPECT_TRUE(taint.empty());
  taint.AddIntegral(73915);
  EXPECT_EQ(taint.generation(), 1u);
  taint.AddIntegral(73915);
  EXPECT_EQ(taint.generation(), 1u);
}

// What the probe reports for the egress gate: keys of the strings long
// enough to be searched for and of the distinctive numbers, sorted, no
// value.
TEST(TaintTest, DeniedKeysAreTheTaintedValuesHashed) {
  TaintSet taint;
  taint.AddString("tk-91x7-ALPHA");
  taint.AddString("abc");  // too short to search for
  taint.AddIntegral(73915);
  taint.AddFloating(-20480.0);  // an integral value
  taint.AddFloating(2048.25);   // not integral: no key
  TaintSet::Keys keys = taint.DeniedKeys();
  ASSERT_EQ(keys.texts.size(), 1u);
  EXPECT_EQ(keys.texts[0].bytes, 13u);
  EXPECT_EQ(keys.texts[0].key, ConstantKey(std::string_view("tk-91x7-ALPHA")));
  EXPECT_EQ(keys.texts[0].rolling, RollingKey("tk-91x7-ALPHA"));
  EXPECT_LT(keys.texts[0].rolling, 1u << 16);
  std::vector<uint64_t> numbers = {ConstantKey(int64_t{73915}), ConstantKey(int64_t{-20480})};
  std::sort(numbers.begin(), numbers.end());
  EXPECT_EQ(keys.numbers, numbers);
  EXPECT_TRUE(TaintSet().DeniedKeys().texts.empty());
}

TEST(TaintTest, EqualAndContainingValuesAnywhereAreRedacted) {
  TaintSet taint;
  taint.AddString("tk-91x7-ALPHA");
  taint.AddIntegral(73915);
  taint.AddFloating(2048.25);
  v1::Observation obs;
  obs.add_args()->set_string_value("tk-91x7-ALPHA");
  obs.add_args()->set_int_value(73915);
  obs.add_args()->set_long_value(73915);
  obs.add_args()->set_int_value(7);
  obs.add_args()->set_double_value(73915.0);
  obs.add_args()->set_double_value(2048.25);
  obs.add_args()->set_string_value("ordinary");
  v1::ObjectState* holder = AddState(obs.mutable_pre(), 1);
  AddField(holder, "label")->set_string_value("label:tk-91x7-ALPHA!");
  AddField(holder, "code")->set_string_value("pin 73915 ok");
  AddField(holder, "count")->set_int_value(3);
  v1::ObjectState* array = AddState(obs.mutable_post(), 2);
  array->mutable_array()->set_element_descriptor("Ljava/lang/Object;");
  array->mutable_array()->add_elements()->set_string_value("tk-91x7-ALPHA");
  array->mutable_array()->add_elements()->set_string_value("kept");
  v1::ObjectState* chars = AddState(obs.mutable_post(), 3);
  chars->mutable_array()->set_element_descriptor("C");
  for (char c : std::string("xtk-91x7-ALPHA")) chars->mutable_array()->add_elements()->set_char_value(c);
  v1::ObjectState* harmless = AddState(obs.mutable_post(), 4);
  harmless->mutable_array()->set_element_descriptor("C");
  for (char c : std::string("abc")) harmless->mutable_array()->add_elements()->set_char_value(c);
  obs.mutable_outcome()->mutable_thrown()->set_message("bad tk-91x7-ALPHA");
  obs.mutable_outcome()->mutable_thrown()->set_has_message(true);

  // Five arguments, two fields, one element, the 14 chars, the message.
  EXPECT_EQ(taint.Scrub(&obs), 5 + 2 + 1 + 14 + 1);
  EXPECT_TRUE(obs.args(0).has_redacted());
  EXPECT_TRUE(obs.args(1).has_redacted());
  EXPECT_TRUE(obs.args(2).has_redacted());
  EXPECT_EQ(obs.args(3).int_value(), 7);
  EXPECT_TRUE(obs.args(4).has_redacted());
  EXPECT_TRUE(obs.args(5).has_redacted());
  EXPECT_EQ(obs.args(6).string_value(), "ordinary");
  EXPECT_TRUE(obs.pre(0).fields(0).value().has_redacted());
  EXPECT_TRUE(obs.pre(0).fields(1).value().has_redacted());
  EXPECT_EQ(obs.pre(0).fields(2).value().int_value(), 3);
  EXPECT_TRUE(obs.post(0).array().elements(0).has_redacted());
  EXPECT_EQ(obs.post(0).array().elements(1).string_value(), "kept");
  for (const v1::Value& v : obs.post(1).array().elements()) EXPECT_TRUE(v.has_redacted());
  for (const v1::Value& v : obs.post(2).array().elements()) EXPECT_FALSE(v.has_redacted());
  EXPECT_FALSE(obs.outcome().thrown().has_message());
  EXPECT_EQ(obs.outcome().thrown().message(), "");
}

TEST(TaintTest, HoldsAValueItselfNotATextContainingIt) {
  TaintSet taint;
  taint.AddString("Rt5Yh8Kp");
  taint.AddIntegral(98765);
  taint.AddIntegral(12);  // not distinctive: never tainted
  EXPECT_TRUE(taint.HoldsString("Rt5Yh8Kp"));
  EXPECT_FALSE(taint.HoldsString("xRt5Yh8Kp"));
  EXPECT_TRUE(taint.HoldsIntegral(98765));
  EXPECT_FALSE(taint.HoldsIntegral(98766));
  EXPECT_FALSE(taint.HoldsIntegral(12));
}

TEST(TaintTest, ShortSecretsAreMatchedByEqualityOnly) {
  TaintSet taint;
  taint.AddString("ab");
  v1::Observation obs;
  obs.add_args()->set_string_value("ab");
  obs.add_args()->set_string_value("abc");
  EXPECT_EQ(taint.Scrub(&obs), 1);
  EXPECT_TRUE(obs.args(0).has_redacted());
  EXPECT_EQ(obs.args(1).string_value(), "abc");
}

TEST(TaintTest, EmptySetChangesNothing) {
  TaintSet taint;
  taint.AddString("");
  v1::Observation obs;
  obs.add_args()->set_string_value("");
  obs.add_args()->set_int_value(99999);
  EXPECT_EQ(taint.Scrub(&obs), 0);
  EXPECT_EQ(obs.args(1).int_value(), 99999);
}

// Free text (the JVM's console output): every occurrence of a tainted
// string or distinctive number, the longest first; short secrets stay.
TEST(TaintTest, TextHasEveryTaintedValueRedacted) {
  TaintSet taint;
  taint.AddString("Wd83Kp51");
  taint.AddString("Wd83");
  taint.AddString("ab");
  taint.AddIntegral(739155);
  std::string text =
      "expected: <nothing> but was: <Wd83Kp51>\nWd83 and ab, pin 739155, Wd83Kp51 again\n";
  EXPECT_EQ(taint.RedactText(&text), 4);
  EXPECT_EQ(text,
            "expected: <nothing> but was: <<redacted: denied value>>\n<redacted: denied value> "
            "and ab, pin <redacted: denied value>, <redacted: denied value> again\n");
  std::string clean = "nothing here";
  EXPECT_EQ(taint.RedactText(&clean), 0);
  EXPECT_EQ(clean, "nothing here");
}

}  // namespace
}  // namespace tracespec::probe
