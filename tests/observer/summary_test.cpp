// Tests for observer/summary.h: counting and printing.
#include "observer/summary.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec::observer {
namespace {

using ::testing::HasSubstr;

v1::Observation Call(const std::string& name, bool thrown, const std::string& test) {
  v1::Observation o;
  o.mutable_method()->set_class_name("a.B");
  o.mutable_method()->set_name(name);
  o.mutable_method()->set_jvm_descriptor("(Ljava/lang/String;)V");
  o.mutable_method()->add_param_names("pin");
  o.set_test_id(test);
  o.add_args()->mutable_redacted();
  if (thrown) {
    o.mutable_outcome()->mutable_thrown()->set_class_name("java.lang.X");
  } else {
    o.mutable_outcome()->mutable_returned_void();
  }
  v1::ObjectState* state = o.add_pre();
  state->set_class_name("a.B");
  v1::Field* field = state->add_fields();
  field->set_name("apiKey");
  field->mutable_value()->mutable_redacted();
  v1::Field* inherited = state->add_fields();
  inherited->set_name("salt");
  inherited->set_declaring_class("a.Base");
  inherited->mutable_value()->mutable_redacted();
  return o;
}

void Count(const std::vector<v1::Observation>& observations,
           const std::vector<std::string>& withheld, v1::ObserveSummary* summary) {
  ObservationCounter counter(withheld);
  for (const v1::Observation& o : observations) counter.Add(o);
  counter.Fill(summary);
}

TEST(SummaryTest, CountsPerMethodAndRedactions) {
  v1::ObserveSummary s;
  Count({Call("f", false, "t#1"), Call("f", true, "t#1"), Call("g", false, "")},
        {"a.B.apiKey", "a.C.hidden"}, &s);
  EXPECT_EQ(s.observations(), 3);
  EXPECT_EQ(s.unattributed_observations(), 1);
  ASSERT_EQ(s.methods_size(), 2);
  EXPECT_EQ(s.methods(0).method(), "a.B#f(Ljava/lang/String;)V");
  EXPECT_EQ(s.methods(0).returned(), 1);
  EXPECT_EQ(s.methods(0).thrown(), 1);
  std::map<std::string, int64_t> counts;
  for (const auto& r : s.redactions()) counts[r.what()] = r.count();
  EXPECT_EQ(counts["a.B.apiKey"], 3);
  EXPECT_EQ(counts["a.Base.salt"], 3);
  EXPECT_EQ(counts["a.C.hidden"], 0);
  EXPECT_EQ(counts["a.B#f(Ljava/lang/String;)V parameter pin"], 2);
}

TEST(SummaryTest, FormatsFailuresExclusionsAndPartialRuns) {
  v1::ObserveSummary s;
  s.set_tests_run(2);
  s.set_tests_passed(1);
  s.set_tests_failed(1);
  s.set_jvm_result("exit code 1");
  s.set_policy("built-in default");
  v1::TestSummary* failed = s.add_tests();
  failed->set_test_id("t.A#bad");
  failed->set_status(v1::TEST_STATUS_FAILED);
  failed->set_failure_class("java.lang.AssertionError");
  failed->set_observations(2);
  v1::TestSummary* excluded = s.add_tests();
  excluded->set_test_id("t.A#secretive");
  excluded->set_status(v1::TEST_STATUS_PASSED);
  excluded->set_excluded(true);
  excluded->set_excluded_reason("test source mentions \"secret\" (t/A.java:3)");
  s.set_tests_excluded(1);
  Count({Call("f", false, "t.A#bad")}, {"a.C.hidden"}, &s);
  s.set_complete(false);
  s.set_incomplete_reason("the JVM ended");
  std::string text = FormatSummary(s, "/o");
  EXPECT_THAT(text, HasSubstr("tests: 2 run, 1 passed, 1 failed, 0 skipped"));
  EXPECT_THAT(text, HasSubstr("  FAILED t.A#bad (java.lang.AssertionError): its 2 calls are kept "
                              "out of inference (flagged, used for local checks only)\n"));
  EXPECT_THAT(text, HasSubstr("a.B#f(Ljava/lang/String;)V  1 (1 returned, 0 threw)"));
  EXPECT_THAT(text, HasSubstr("a.B.apiKey: 1 value redacted"));
  EXPECT_THAT(text, HasSubstr("a.C.hidden: omitted"));
  EXPECT_THAT(text, HasSubstr("excluded tests (never sent anywhere): 1\n  t.A#secretive: test "
                              "source mentions \"secret\""));
  EXPECT_THAT(text, HasSubstr("PARTIAL: the JVM ended"));
}

}  // namespace
}  // namespace tracespec::observer
