// Tests for common/method_signature.h: descriptors, class names, and the
// spellings of a method on the command line.
#include "common/method_signature.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;

TEST(MethodSignatureTest, Descriptors) {
  EXPECT_TRUE(IsMethodDescriptor("()V"));
  EXPECT_TRUE(IsMethodDescriptor("(IJ[ZLjava/lang/Object;)Ljava/lang/String;"));
  EXPECT_FALSE(IsMethodDescriptor("(I)"));
  EXPECT_TRUE(IsMethodDescriptor("(I)", /*allow_parameters_only=*/true));
  EXPECT_FALSE(IsMethodDescriptor("(L;)V"));
  EXPECT_FALSE(IsMethodDescriptor("(Ljava.lang.String;)V"));
  EXPECT_FALSE(IsMethodDescriptor("(I)VV"));
  EXPECT_FALSE(IsMethodDescriptor("I)V"));
  EXPECT_FALSE(IsMethodDescriptor("(Q)V"));
  EXPECT_FALSE(IsMethodDescriptor("([)V"));
  EXPECT_EQ(FieldDescriptorLength("[[Lp/A;I"), 7u);
  EXPECT_EQ(FieldDescriptorLength("V"), 0u);
}

TEST(MethodSignatureTest, ClassNames) {
  EXPECT_TRUE(CheckClassName("Top", "x").ok());
  EXPECT_TRUE(CheckClassName("a.b.C$D", "x").ok());
  EXPECT_FALSE(CheckClassName("a/b/C", "x").ok());
  EXPECT_FALSE(CheckClassName("a.", "x").ok());
  EXPECT_FALSE(CheckClassName("1a.B", "x").ok());
  EXPECT_FALSE(CheckClassName("", "x").ok());
}

MethodSignature Parsed(const char* text) {
  auto s = MethodSignature::Parse(text);
  EXPECT_TRUE(s.ok()) << text << ": " << s.status();
  return s.value_or(MethodSignature{});
}

TEST(MethodSignatureTest, JvmDescriptors) {
  EXPECT_EQ(Parsed("shop.Stats#max").descriptor, "");
  EXPECT_EQ(Parsed("shop.Stats#max([I)I").descriptor, "([I)I");
  EXPECT_EQ(Parsed("shop.Stats#max([I)").descriptor, "([I)");
  EXPECT_EQ(Parsed("shop.Cart#<init>()V").method_name, "<init>");
  // (I) parses as a descriptor: int, not a class named I.
  EXPECT_EQ(Parsed("p.C#f(I)").descriptor, "(I)");
}

TEST(MethodSignatureTest, JavaSpelling) {
  EXPECT_EQ(Parsed("shop.Stats#max(int[])").descriptor, "([I)");
  EXPECT_EQ(Parsed("pkg.C#m(java.lang.String, int)").descriptor, "(Ljava/lang/String;I)");
  EXPECT_EQ(Parsed("pkg.C#m(String)").descriptor, "(Ljava/lang/String;)");
  EXPECT_EQ(Parsed("pkg.C#m()").descriptor, "()");
  EXPECT_EQ(Parsed("pkg.C#m(long..., double[][])").descriptor, "([J[[D)");
  EXPECT_EQ(Parsed("pkg.C#m(java.util.Map<String, java.util.List<Integer>>)").descriptor,
            "(Ljava/util/Map;)");
  EXPECT_EQ(Parsed("pkg.C#m(java.util.Map.Entry)").descriptor, "(Ljava/util/Map$Entry;)");
  // Other simple names are classes of the method's package.
  EXPECT_EQ(Parsed("pkg.sub.C#m(Item, Outer.Inner)").descriptor,
            "(Lpkg/sub/Item;Lpkg/sub/Outer$Inner;)");
  EXPECT_EQ(Parsed("C#m(Item)").descriptor, "(LItem;)");
  EXPECT_EQ(Parsed("pkg.C#<init>(boolean, char)").descriptor, "(ZC)");
}

TEST(MethodSignatureTest, Matches) {
  EXPECT_TRUE(Parsed("p.C#m").Matches("(I)V"));
  EXPECT_TRUE(Parsed("p.C#m(int)").Matches("(I)V"));
  EXPECT_FALSE(Parsed("p.C#m(int)").Matches("(II)V"));
  EXPECT_TRUE(Parsed("p.C#m(I)V").Matches("(I)V"));
  EXPECT_FALSE(Parsed("p.C#m(I)V").Matches("(I)I"));
  EXPECT_EQ(Parsed("p.C#m(int)").ToString(), "p.C#m(I)");
}

TEST(MethodSignatureTest, Errors) {
  auto message = [](const char* text) {
    return std::string(MethodSignature::Parse(text).status().message());
  };
  EXPECT_THAT(message("shop.Stats.max"), HasSubstr("no '#'"));
  EXPECT_THAT(message("shop.Stats#"), HasSubstr("the method name is missing"));
  EXPECT_THAT(message("shop..Stats#max"), HasSubstr("not a binary class name"));
  EXPECT_THAT(message("shop.Stats#max(int[]"), HasSubstr("')' is missing"));
  EXPECT_THAT(message("shop.Stats#max(int)int"),
              HasSubstr("'(int)int' is neither a JVM descriptor nor Java parameter types"));
  EXPECT_THAT(message("shop.Stats#max(in-t)"), HasSubstr("'in-t' is not a Java type"));
  EXPECT_THAT(message("shop.Stats#max(Map<K)"), HasSubstr("unbalanced '<'"));
  EXPECT_THAT(message("shop.Stats#max(int,)"), HasSubstr("a parameter type is missing"));
  EXPECT_THAT(message("shop.Stats#ma x"), HasSubstr("is not a method name"));
}

}  // namespace
}  // namespace tracespec
