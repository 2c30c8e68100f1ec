// Tests for common/method_id.h: the key, the Java-style display, and that
// the display selects the same method again.
#include "common/method_id.h"

#include "common/method_signature.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tracespec {
namespace {

using ::testing::HasSubstr;

TEST(MethodIdTest, ParsesKeysWithFullDescriptors) {
  auto id = MethodId::Parse("bank.Account#deposit(I)V");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(id->class_name(), "bank.Account");
  EXPECT_EQ(id->name(), "deposit");
  EXPECT_EQ(id->descriptor(), "(I)V");
  EXPECT_EQ(id->package(), "bank");
  EXPECT_EQ(id->simple_class_name(), "Account");
  EXPECT_EQ(id->Key(), "bank.Account#deposit(I)V");

  auto partial = MethodId::Parse("bank.Account#deposit(int)");
  ASSERT_FALSE(partial.ok());
  EXPECT_THAT(partial.status().message(), HasSubstr("full JVM descriptor"));
  EXPECT_FALSE(MethodId::Parse("bank.Account.deposit(I)V").ok());
}

TEST(MethodIdTest, DisplaysJavaParameterTypes) {
  EXPECT_EQ(MethodId("bank.Account", "deposit", "(I)V").Display(), "bank.Account#deposit(int)");
  EXPECT_EQ(MethodId("bank.Account", "getBalance", "()I").Display(), "bank.Account#getBalance()");
  EXPECT_EQ(MethodId("p.Q", "m", "([[JLjava/lang/String;Lp/Item;Ljava/util/List;)Z").Display(),
            "p.Q#m(long[][], String, Item, java.util.List)");
  EXPECT_EQ(MethodId("Top", "f", "(LTop$Node;[LOther;)V").Display(), "Top#f(Top$Node, Other[])");
  EXPECT_EQ(MethodId("p.Q", "<init>", "(C)V").Display(), "p.Q#<init>(char)");
  // A java.lang class outside the names a bare simple name stands for is
  // spelled in full, as is a class of the package that shadows java.lang.
  EXPECT_EQ(MethodId("p.Q", "m", "(Ljava/lang/ProcessBuilder;Lp/String;)V").Display(),
            "p.Q#m(java.lang.ProcessBuilder, p.String)");
}

TEST(MethodIdTest, DisplaySelectsTheSameMethod) {
  const MethodId ids[] = {
      MethodId("bank.Account", "deposit", "(I)V"),
      MethodId("p.Q", "m", "([[JLjava/lang/String;Lp/Item;Ljava/util/List;)Z"),
      MethodId("p.Q", "m", "(Ljava/lang/ProcessBuilder;Lp/String;)V"),
      MethodId("Top", "f", "(LTop$Node;[LOther;)V"),
      MethodId("a.b.C$D", "g", "(La/b/C$D;Ljava/util/Map$Entry;)Ljava/lang/Object;"),
      MethodId("com.Acme.x", "h", "(Lcom/Acme/x;)V"),
  };
  for (const MethodId& id : ids) {
    auto back = MethodSignature::Parse(id.Display());
    ASSERT_TRUE(back.ok()) << id.Display() << ": " << back.status();
    EXPECT_EQ(back->class_name, id.class_name()) << id.Display();
    EXPECT_EQ(back->method_name, id.name()) << id.Display();
    EXPECT_TRUE(back->Matches(id.descriptor())) << id.Display() << " vs " << id.descriptor();
  }
}

TEST(MethodIdTest, ProtoRoundTrip) {
  v1::MethodRef ref;
  ref.set_class_name("bank.Account");
  ref.set_name("withdraw");
  ref.set_jvm_descriptor("(I)V");
  MethodId id = MethodId::FromRef(ref);
  v1::MethodId proto = id.ToProto();
  EXPECT_EQ(proto.display(), "bank.Account#withdraw(int)");
  EXPECT_EQ(MethodId::FromProto(proto), id);
  EXPECT_TRUE(MethodId("a.B", "m", "()V") < MethodId("a.B", "n", "()V"));
}

TEST(MethodIdTest, ClassNameParts) {
  EXPECT_EQ(PackageOf("a.b.C$D"), "a.b");
  EXPECT_EQ(SimpleClassName("a.b.C$D"), "C$D");
  EXPECT_EQ(PackageOf("Top"), "");
  EXPECT_EQ(SimpleClassName("Top"), "Top");
  EXPECT_EQ(DescriptorToJava("[[Lpkg/A$B;"), "pkg.A$B[][]");
}

}  // namespace
}  // namespace tracespec
