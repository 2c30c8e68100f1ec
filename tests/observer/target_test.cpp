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

TEST(TargetTest, JavaSpellingGivesAParametersOnlyDescriptor) {
  auto t = ParseTarget("shop.Stats#max(int[])");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->jvm_descriptor(), "([I)");
  EXPECT_EQ(t->spec(), "shop.Stats#max(int[])");
}

TEST(TargetTest, PatternsSelectPublicMethodsByGlob) {
  auto t = ParseTarget("com.acme.pricing.*#*");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->pattern());
  EXPECT_EQ(t->class_name(), "com.acme.pricing.*");
  EXPECT_EQ(t->method_name(), "*");
  EXPECT_EQ(t->jvm_descriptor(), "");
  t = ParseTarget("com.acme.Pricing#get?ota*");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->pattern());
  EXPECT_EQ(t->class_name(), "com.acme.Pricing");
  EXPECT_EQ(t->method_name(), "get?ota*");
  EXPECT_FALSE(ParseTarget("bank.Account#deposit")->pattern());
  // What a pattern selects by name (infer expands its patterns with this).
  EXPECT_TRUE(PatternSelects(*t, "com.acme.Pricing", "getRotaMax"));
  EXPECT_FALSE(PatternSelects(*t, "com.acme.Pricing", "setRota"));
  EXPECT_FALSE(PatternSelects(*t, "com.acme.PricingX", "getRota"));
  auto all = ParseTarget("vault.*#*");
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_TRUE(PatternSelects(*all, "vault.sub.Vault", "open"));
  EXPECT_FALSE(PatternSelects(*all, "vault.Vault", "<init>"));
  EXPECT_FALSE(PatternSelects(*ParseTarget("vault.Vault#open"), "vault.Vault", "open"));

  EXPECT_THAT(std::string(ParseTarget("com.acme.*").status().message()),
              HasSubstr("expected CLASS#METHOD"));
  EXPECT_THAT(std::string(ParseTarget("com.acme.*#").status().message()),
              HasSubstr("a pattern needs a class part and a method part"));
  EXPECT_THAT(std::string(ParseTarget("com.acme.*#f(I)V").status().message()),
              HasSubstr("a pattern selects methods by name only"));
  EXPECT_THAT(std::string(ParseTarget("com/acme/*#*").status().message()),
              HasSubstr("'/' cannot appear in a class pattern"));
}

TEST(TargetTest, Errors) {
  EXPECT_THAT(ParseTarget("bank.Account.deposit").status().message(), HasSubstr("no '#'"));
  EXPECT_THAT(ParseTarget("bank.Account#").status().message(), HasSubstr("name is missing"));
  EXPECT_THAT(ParseTarget("bank..Account#f").status().message(),
              HasSubstr("not a binary class name"));
  EXPECT_THAT(ParseTarget("bank.Account#f(int)V").status().message(),
              HasSubstr("'(int)V' is neither a JVM descriptor nor Java parameter types"));
  EXPECT_THAT(ParseTarget("bank.Account#<clinit>").status().message(),
              HasSubstr("static initializers"));
  EXPECT_THAT(ParseTarget("a.B#f g").status().message(), HasSubstr("is not a method name"));
  EXPECT_THAT(ParseTarget("a.B#f(x").status().message(), HasSubstr("--method 'a.B#f(x'"));
}

}  // namespace
}  // namespace tracespec::observer
