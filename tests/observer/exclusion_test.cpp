// Tests for observer/exclusion.h: finding a test method's source and the
// sensitive names it or the recorded data mention.
#include "observer/exclusion.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::observer {
namespace {

using ::testing::HasSubstr;

google::protobuf::RepeatedPtrField<std::string> Names(std::initializer_list<const char*> names) {
  google::protobuf::RepeatedPtrField<std::string> out;
  for (const char* n : names) out.Add(n);
  return out;
}

constexpr char kSource[] = R"(package t;
class SomeTest {
  private String helper() { return "a } b"; }   // helper() { is not a test
  @Test
  void first() throws Exception {
    helper();  /* first() { */
    char c = '}';
    if (true) { int x = 1; }
  }
  @Test void second() { String s = "Secret stuff"; }
}
)";

TEST(ExclusionTest, FindsDeclarationsNotCallsAndRespectsLiterals) {
  std::string first = FindMethodSource(kSource, "first");
  EXPECT_THAT(first, HasSubstr("void first() throws Exception {"));
  EXPECT_THAT(first, HasSubstr("if (true) { int x = 1; }\n  }"));
  EXPECT_THAT(first, ::testing::Not(HasSubstr("second")));
  std::string helper = FindMethodSource(kSource, "helper");
  EXPECT_THAT(helper, HasSubstr("return \"a } b\"; }"));
  EXPECT_EQ(FindMethodSource(kSource, "third"), "");
  EXPECT_THAT(FindMethodSource(kSource, "second"), HasSubstr("Secret stuff"));
}

TEST(ExclusionTest, SourceMentionNamesWordFileAndLine) {
  testing::TempDir dir;
  dir.Write("t/SomeTest.java", kSource);
  auto names = Names({"password", "secret"});
  EXPECT_EQ(SourceMention(dir.path(), "t.SomeTest#first", names), "");
  EXPECT_EQ(SourceMention(dir.path(), "t.SomeTest#second", names),
            "test source mentions \"secret\" (t/SomeTest.java:10)");
  // Nested classes are found in their outer class's file.
  EXPECT_NE(SourceMention(dir.path(), "t.SomeTest$Inner#second", names), "");
  EXPECT_EQ(SourceMention(dir.path(), "t.Missing#second", names), "");
  EXPECT_EQ(SourceMention("", "t.SomeTest#second", names), "");
}

TEST(ExclusionTest, DataMentionLooksAtEveryRecordedString) {
  auto names = Names({"token"});
  v1::Observation o;
  o.mutable_method()->set_class_name("a.B");
  o.mutable_method()->set_name("f");
  o.mutable_method()->set_jvm_descriptor("()V");
  o.add_args()->set_string_value("plain");
  EXPECT_EQ(DataMention(o, names), "");
  v1::Field* field = o.add_post()->add_fields();
  field->set_name("token");  // Names are not data.
  field->mutable_value()->mutable_redacted();
  EXPECT_EQ(DataMention(o, names), "");
  o.add_pre()->mutable_array()->add_elements()->set_string_value("my TOKEN");
  EXPECT_EQ(DataMention(o, names),
            "recorded data mentions \"token\" (a string in a call of a.B#f()V)");
  v1::Observation thrown;
  thrown.mutable_outcome()->mutable_thrown()->set_message("bad token");
  thrown.mutable_outcome()->mutable_thrown()->set_has_message(true);
  EXPECT_NE(DataMention(thrown, names), "");
}

}  // namespace
}  // namespace tracespec::observer
