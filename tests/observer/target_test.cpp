// Tests for observer/target.h: target specs, descriptors, class names.
#include "observer/target.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec::observer {
namespace {

using ::testing::HasSubstr;

TEST(TargetTest, ClassAndName) {
  auto t = ParseTarget("bank.Account#deposit");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->class_name(), "bank.Account");
  EXPECT_EQ(t->method_name(), "deposit");
  EXPECT_EQ(t->jvm_descriptor(), "");
  EXPECT_EQ(t->spec(), "bank.Account#deposit");
}

TEST(TargetTest, DescriptorSelectsAnOverload) {
  auto t = ParseTarget("p.Outer$Inner#f([[Ljava/lang/String;JD)[I");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->class_name(), "p.Outer$Inner");
  EXPECT_EQ(t->jvm_descriptor(), "([[Ljava/lang/String;JD)[I");
}

TEST(TargetTest, Constructors) {
  auto t = ParseTarget("Top#<init>(I)V");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->method_name(), "<init>");
}

TEST(TargetTest, Errors) {
  EXPECT_THAT(ParseTarget("bank.Account.deposit").status().message(), HasSubstr("no '#'"));
  EXPECT_THAT(ParseTarget("bank.Account#").status().message(), HasSubstr("name is missing"));
  EXPECT_THAT(ParseTarget("bank..Account#f").status().message(),
              HasSubstr("not a binary class name"));
  EXPECT_THAT(ParseTarget("bank.Account#f(int)V").status().message(),
              HasSubstr("'(int)V' is not a JVM method descriptor"));
  EXPECT_THAT(ParseTarget("bank.Account#<clinit>").status().message(),
              HasSubstr("static initializers"));
  EXPECT_THAT(ParseTarget("a.B#f g").status().message(), HasSubstr("is not a method name"));
}

TEST(TargetTest, Descriptors) {
  EXPECT_TRUE(IsMethodDescriptor("()V"));
  EXPECT_TRUE(IsMethodDescriptor("(IJ[ZLjava/lang/Object;)Ljava/lang/String;"));
  EXPECT_FALSE(IsMethodDescriptor("(I)"));
  EXPECT_FALSE(IsMethodDescriptor("(L;)V"));
  EXPECT_FALSE(IsMethodDescriptor("(I)VV"));
  EXPECT_FALSE(IsMethodDescriptor("I)V"));
  EXPECT_FALSE(IsMethodDescriptor("(Q)V"));
  EXPECT_FALSE(IsMethodDescriptor("([)V"));
}

TEST(TargetTest, ClassNames) {
  EXPECT_TRUE(CheckClassName("Top", "x").ok());
  EXPECT_TRUE(CheckClassName("a.b.C$D", "x").ok());
  EXPECT_FALSE(CheckClassName("a/b/C", "x").ok());
  EXPECT_FALSE(CheckClassName("a.", "x").ok());
  EXPECT_FALSE(CheckClassName("1a.B", "x").ok());
  EXPECT_FALSE(CheckClassName("", "x").ok());
}

}  // namespace
}  // namespace tracespec::observer
