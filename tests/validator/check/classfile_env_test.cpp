// The JML type checker's view of compiled classes: members, types, names
// and purity from class files alone, and contracts type-checked against them.
#include "validator/check/classfile_env.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/jml/spec_source.h"
#include "validator/jml/type_checker.h"

namespace tracespec::check {
namespace {

const char* kShop = R"java(
package shop;

public class Cart extends Base implements Comparable<Cart> {
  private int items;
  protected static final long LIMIT = 10;
  public String owner;
  private int[] prices;

  public int items() {
    return items;
  }

  public void add(int price, String label) {
    items++;
  }

  public int compareTo(Cart other) {
    return Integer.compare(items, other.items);
  }
}

class Base {
  int base;
}
)java";

class ClassFileEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string classes = testing::CompileJava(dir_, {{"shop/Cart.java", kShop}}, {"-g"});
    auto cp = classfile::ClassPath::Create(classes);
    ASSERT_TRUE(cp.ok());
    cp_ = std::move(*cp);
  }
  testing::TempDir dir_;
  classfile::ClassPath cp_;
};

TEST_F(ClassFileEnvTest, DescribesFieldsMethodsAndSupertypes) {
  ClassFileTypeEnvironment env(&cp_);
  const jml::ClassInfo* cart = env.FindClass("shop.Cart");
  ASSERT_NE(cart, nullptr);
  EXPECT_EQ(cart->superclass, "shop.Base");
  EXPECT_THAT(cart->interfaces, ::testing::ElementsAre("java.lang.Comparable"));
  const jml::FieldInfo* items = cart->FindField("items");
  ASSERT_NE(items, nullptr);
  EXPECT_EQ(items->type, jml::Type::Int());
  EXPECT_EQ(items->visibility, jml::Visibility::kPrivate);
  EXPECT_TRUE(items->spec_public);
  const jml::FieldInfo* limit = cart->FindField("LIMIT");
  ASSERT_NE(limit, nullptr);
  EXPECT_TRUE(limit->is_static);
  EXPECT_TRUE(limit->is_final);
  EXPECT_EQ(limit->type, jml::Type::Long());
  EXPECT_EQ(cart->FindField("prices")->type, jml::Type::ArrayOf(jml::Type::Int()));
  const jml::MethodInfo* add = cart->FindMethod("add", "(ILjava/lang/String;)V");
  ASSERT_NE(add, nullptr);
  EXPECT_THAT(add->param_names, ::testing::ElementsAre("price", "label"));
  EXPECT_EQ(add->params[1], jml::Type::String());
  EXPECT_FALSE(add->is_pure);
  const jml::MethodInfo* getter = cart->FindMethod("items", "()I");
  ASSERT_NE(getter, nullptr);
  EXPECT_TRUE(getter->is_pure);
  EXPECT_EQ(getter->result, jml::Type::Int());
  EXPECT_NE(cart->FindMethod("<init>", "()V"), nullptr);
  EXPECT_EQ(env.FindClass("shop.Missing"), nullptr);
  EXPECT_TRUE(jml::IsSubclassOf(env, "shop.Cart", "shop.Base"));
}

TEST_F(ClassFileEnvTest, ContractsTypeCheckWithoutSource) {
  ClassFileTypeEnvironment env(&cp_);
  auto selector = jml::MethodSelector::Parse("shop.Cart#add");
  ASSERT_TRUE(selector.ok());
  jml::LoadOptions options;
  options.classpath = &env;
  auto check = [&](const std::string& text) {
    auto src = jml::ParseMethodSpecSource(text, "c.txt", jml::ContractFormat::kSpecText,
                                          *selector, options);
    EXPECT_TRUE(src.ok()) << src.status();
    auto ctx = src->Context();
    EXPECT_TRUE(ctx.ok()) << ctx.status();
    jml::TypeChecker checker(src->environment());
    return checker.CheckMethodSpec(*src->spec, *ctx).status();
  };
  EXPECT_TRUE(check("//@ requires price > 0 && label != null;\n"
                    "//@ ensures items == \\old(items) + 1 && items() == items && base == 0;\n"
                    "//@ assignable items;")
                  .ok());
  absl::Status missing = check("//@ ensures itemz == 1;");
  EXPECT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.message()), ::testing::HasSubstr("itemz"));
  EXPECT_THAT(std::string(missing.message()), ::testing::HasSubstr("c.txt:1:13"));
}

}  // namespace
}  // namespace tracespec::check
