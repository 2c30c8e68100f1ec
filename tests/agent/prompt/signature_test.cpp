// Tests for agent/prompt/signature.h: JVM descriptors as Java types and
// method declarations.
#include "agent/prompt/signature.h"

#include "gtest/gtest.h"

namespace tracespec::prompt {
namespace {

TEST(SignatureTest, FieldDescriptorsBecomeJavaTypes) {
  EXPECT_EQ(*JavaTypeFromDescriptor("I"), "int");
  EXPECT_EQ(*JavaTypeFromDescriptor("Z"), "boolean");
  EXPECT_EQ(*JavaTypeFromDescriptor("[[J"), "long[][]");
  EXPECT_EQ(*JavaTypeFromDescriptor("Ljava/lang/String;"), "String");
  EXPECT_EQ(*JavaTypeFromDescriptor("Ljava/util/List;"), "java.util.List");
  EXPECT_EQ(*JavaTypeFromDescriptor("[Lbank/Outer$Inner;"), "bank.Outer.Inner[]");
}

TEST(SignatureTest, BadDescriptorsAreErrors) {
  EXPECT_FALSE(JavaTypeFromDescriptor("").ok());
  EXPECT_FALSE(JavaTypeFromDescriptor("V").ok());
  EXPECT_FALSE(JavaTypeFromDescriptor("Ljava/lang/String").ok());
  EXPECT_FALSE(JavaTypeFromDescriptor("II").ok());
  EXPECT_FALSE(ParseMethodDescriptor("I)V").ok());
  EXPECT_FALSE(ParseMethodDescriptor("(I").ok());
  EXPECT_FALSE(ParseMethodDescriptor("(V)V").ok());
  auto bad = ParseMethodDescriptor("(Q)V");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("unknown type 'Q' at offset 1"), std::string::npos);
}

TEST(SignatureTest, MethodDescriptorSplitsParametersAndResult) {
  auto types = ParseMethodDescriptor("(I[DLjava/lang/String;)[I");
  ASSERT_TRUE(types.ok()) << types.status();
  EXPECT_EQ(types->params, (std::vector<std::string>{"int", "double[]", "String"}));
  EXPECT_EQ(types->result, "int[]");
}

TEST(SignatureTest, RendersDeclarations) {
  auto max = SignatureFromDescriptor("util.Arrays2", "max", "([II)I", /*is_static=*/true, {"a"});
  ASSERT_TRUE(max.ok()) << max.status();
  max->exceptions = {"java.lang.IllegalArgumentException"};
  EXPECT_EQ(RenderDeclaration(*max),
            "public static int max(int[] a, int arg1) throws IllegalArgumentException");

  auto ctor = SignatureFromDescriptor("bank.Account", "<init>", "(J)V", false, {"opening"});
  ASSERT_TRUE(ctor.ok());
  ctor->access = "";
  EXPECT_EQ(RenderDeclaration(*ctor), "Account(long opening)");

  auto find = SignatureFromDescriptor("t.S", "find", "([ILjava/lang/String;)Ljava/lang/String;",
                                      false, {"a", "key"});
  ASSERT_TRUE(find.ok());
  find->params[1].nullable = true;
  find->nullable_result = true;
  EXPECT_EQ(RenderDeclaration(*find),
            "public /*@ nullable @*/ String find(int[] a, /*@ nullable @*/ String key)");
}

TEST(SignatureTest, TooManyNamesIsAnError) {
  auto s = SignatureFromDescriptor("a.B", "m", "(I)V", false, {"x", "y"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("2 parameter names for 1 parameters"), std::string::npos);
}

TEST(SignatureTest, FromMethodRef) {
  v1::MethodRef ref;
  ref.set_class_name("bank.Account");
  ref.set_name("deposit");
  ref.set_jvm_descriptor("(I)I");
  ref.add_param_names("amount");
  auto s = SignatureFromMethodRef(ref);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(RenderDeclaration(*s), "public int deposit(int amount)");
}

}  // namespace
}  // namespace tracespec::prompt
