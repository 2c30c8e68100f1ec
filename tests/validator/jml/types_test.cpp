// Tests for validator/jml/types.h: kinds, spellings and JVM descriptors.
#include "validator/jml/types.h"

#include "gtest/gtest.h"

namespace tracespec::jml {
namespace {

TEST(TypesTest, KindsAndPredicates) {
  EXPECT_TRUE(Type::Int().IsIntegral());
  EXPECT_TRUE(Type::Bigint().IsIntegral());
  EXPECT_TRUE(Type::Real().IsNumeric());
  EXPECT_FALSE(Type::Real().IsIntegral());
  EXPECT_FALSE(Type::Bigint().IsPrimitive());
  EXPECT_TRUE(Type::Boolean().IsPrimitive());
  EXPECT_FALSE(Type::Boolean().IsNumeric());
  EXPECT_TRUE(Type::Null().IsReference());
  EXPECT_TRUE(Type::ArrayOf(Type::Int()).IsReference());
  EXPECT_FALSE(Type::ArrayOf(Type::Int()).IsNumeric());
  EXPECT_EQ(Type::ArrayOf(Type::Int(), 2).ElementType(), Type::ArrayOf(Type::Int()));
  EXPECT_TRUE(Type::ArrayOf(Type::Int()).ElementType().Is(Type::Kind::kInt));
}

TEST(TypesTest, Spellings) {
  EXPECT_EQ(Type::ArrayOf(Type::Class("java.lang.String"), 2).ToString(), "java.lang.String[][]");
  EXPECT_EQ(Type::Bigint().ToString(), "\\bigint");
  EXPECT_EQ(Type::TypeOfType().ToString(), "\\TYPE");
  EXPECT_EQ(Type::FromKeyword("char"), Type::Char());
  EXPECT_EQ(Type::FromKeyword("\\real"), Type::Real());
  EXPECT_TRUE(Type::FromKeyword("String").IsError());
}

TEST(TypesTest, Descriptors) {
  EXPECT_EQ(Type::Int().Descriptor(), "I");
  EXPECT_EQ(Type::ArrayOf(Type::Long()).Descriptor(), "[J");
  EXPECT_EQ(Type::ArrayOf(Type::Class("java.util.Map$Entry")).Descriptor(),
            "[Ljava/util/Map$Entry;");
  EXPECT_EQ(Type::Bigint().Descriptor(), "");
  for (const char* d :
       {"Z", "B", "S", "C", "I", "J", "F", "D", "[[I", "Ljava/lang/String;", "[Lbank/Account;"}) {
    auto t = Type::FromDescriptor(d);
    ASSERT_TRUE(t.ok()) << d;
    EXPECT_EQ(t->Descriptor(), d);
  }
  for (const char* bad : {"", "V", "[", "L;", "Ljava/lang/String", "Q", "II"}) {
    EXPECT_FALSE(Type::FromDescriptor(bad).ok()) << bad;
  }
}

TEST(TypesTest, MethodDescriptors) {
  auto m = ParseMethodDescriptor("(I[JLjava/lang/String;)V");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->params.size(), 3u);
  EXPECT_EQ(m->params[1], Type::ArrayOf(Type::Long()));
  EXPECT_TRUE(m->result.IsVoid());
  EXPECT_EQ(MakeMethodDescriptor(m->params, m->result), "(I[JLjava/lang/String;)V");
  for (const char* bad : {"I)V", "(I", "(V)V", "(I)", "(I)VV"})
    EXPECT_FALSE(ParseMethodDescriptor(bad).ok()) << bad;
}

TEST(TypesTest, Boxing) {
  EXPECT_EQ(BoxedType(Type::Int()), Type::Class("java.lang.Integer"));
  EXPECT_EQ(UnboxedType(Type::Class("java.lang.Character")), Type::Char());
  EXPECT_TRUE(UnboxedType(Type::String()).IsError());
  EXPECT_TRUE(BoxedType(Type::Bigint()).IsError());
}

}  // namespace
}  // namespace tracespec::jml
