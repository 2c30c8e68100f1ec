// Tests for observer/exclusion.h: finding a test method's source and the
// sensitive names it or the recorded data mention.
#include "observer/exclusion.h"

#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::observer {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

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

// A "reference model" class beside the test, declared first and with a
// method of the test's name, never stands in for the test; nor does a
// nested class's method or a call.
constexpr char kModelFirst[] = R"(package t;
class Model {
  static int check(int[] a) { for (int x : a) if (x < 0) return -1; return 0; }  // a copy
}
class CheckTest {
  static class Inner {
    @Test void check() { int innerOnly = 1; }
  }
  @Test void check() { assertEquals(0, Model.check(new int[] {1})); }
  Object anon = new Object() { void check() { int anonymous = 2; } };
}
)";

TEST(ExclusionTest, TheTestMethodIsFoundInItsOwnClassOnly) {
  std::string test = FindTestMethodSource(kModelFirst, "t.CheckTest", "check");
  EXPECT_THAT(test, HasSubstr("@Test void check() { assertEquals(0, Model.check"));
  EXPECT_THAT(test, ::testing::Not(HasSubstr("return -1")));
  EXPECT_THAT(test, ::testing::Not(HasSubstr("innerOnly")));
  EXPECT_THAT(FindTestMethodSource(kModelFirst, "t.CheckTest$Inner", "check"),
              HasSubstr("int innerOnly = 1;"));
  // An anonymous class's method: the enclosing class's own one.
  EXPECT_THAT(FindTestMethodSource(kModelFirst, "t.CheckTest$1", "check"),
              HasSubstr("Model.check"));
  EXPECT_EQ(FindTestMethodSource(kModelFirst, "t.Missing", "check"), "");
  EXPECT_EQ(FindTestMethodSource(kModelFirst, "t.CheckTest", "absent"), "");
  // The old lookup took the first declaration anywhere in the file.
  EXPECT_THAT(FindMethodSource(kModelFirst, "check"), HasSubstr("return -1"));
}

// Overloads of a test method's name: a test id names every one of them
// (JUnit runs each under "pkg.T#m"), so all are its source; a descriptor
// picks one by parameter count, then by parameter types.
constexpr char kOverloads[] = R"(package t;
import java.util.Map;
class OverTest {
  @Test void check() { int none = 0; }
  @ParameterizedTest @ValueSource(ints = {1, 2})
  void check(final int n) { int one = n; }
  @ParameterizedTest @MethodSource("pairs")
  void check(@ConvertWith(Conv.class) String s, Map.Entry<String, Integer> e) {
    String password = s;
  }
  void check(@Positive int a, long[] b) { int twoPrimitives = a; }
  <T> void check(T value, int... rest) { int generic = 1; }
}
)";

TEST(ExclusionTest, EveryOverloadIsTheTestsSourceAndADescriptorPicksOne) {
  std::string all = FindTestMethodSource(kOverloads, "t.OverTest", "check");
  size_t last = 0;
  for (const char* mark :
       {"int none", "int one", "String password", "int twoPrimitives", "int generic"}) {
    size_t at = all.find(mark);
    ASSERT_NE(at, std::string::npos) << mark;
    EXPECT_GT(at, last) << mark << ": not in source order";
    last = at;
  }
  // Each from the start of its line, annotations on lines of their own
  // left out as the single-declaration lookup always did.
  EXPECT_THAT(all, HasSubstr("}\n  void check(final int n)"));
  auto only = [](const std::string& descriptor) {
    return FindTestMethodSource(kOverloads, "t.OverTest", "check", descriptor);
  };
  EXPECT_EQ(only("()V"), "  @Test void check() { int none = 0; }");
  EXPECT_EQ(only("(I)V"), "  void check(final int n) { int one = n; }");
  EXPECT_THAT(only("(Ljava/lang/String;Ljava/util/Map$Entry;)V"), HasSubstr("String password"));
  EXPECT_THAT(only("(Ljava/lang/String;Ljava/util/Map$Entry;)V"), Not(HasSubstr("twoPrimitives")));
  // Two parameters each: the types tell them apart; a parameters-only
  // descriptor works too.
  EXPECT_EQ(only("(I[J)"), "  void check(@Positive int a, long[] b) { int twoPrimitives = a; }");
  // A type variable is erased to its bound, which the source does not
  // spell: the declarations of that count stand.
  std::string generic = only("(Ljava/lang/Object;[I)V");
  EXPECT_THAT(generic, HasSubstr("int generic"));
  EXPECT_THAT(generic, HasSubstr("twoPrimitives"));
  EXPECT_THAT(generic, HasSubstr("password"));
  EXPECT_THAT(generic, Not(HasSubstr("int one")));
  EXPECT_EQ(only("(III)V"), "");
}

TEST(ExclusionTest, SensitiveNamesAreLookedForInEveryOverload) {
  testing::TempDir dir;
  dir.Write("t/OverTest.java", kOverloads);
  EXPECT_EQ(SourceMention(dir.path(), "t.OverTest#check", Names({"password"})),
            "test source mentions \"password\" (t/OverTest.java:9)");
}

TEST(ExclusionTest, SourceMentionNamesWordFileAndLine) {
  testing::TempDir dir;
  dir.Write("t/SomeTest.java", kSource);
  auto names = Names({"password", "secret"});
  EXPECT_EQ(SourceMention(dir.path(), "t.SomeTest#first", names), "");
  EXPECT_EQ(SourceMention(dir.path(), "t.SomeTest#second", names),
            "test source mentions \"secret\" (t/SomeTest.java:10)");
  // Nested classes are found in their outer class's file (one not
  // declared there: its enclosing class).
  EXPECT_NE(SourceMention(dir.path(), "t.SomeTest$Inner#second", names), "");
  EXPECT_EQ(SourceMention(dir.path(), "t.Missing#second", names), "");
  EXPECT_EQ(SourceMention("", "t.SomeTest#second", names), "");
}

// A test is excluded for what it does with a sensitive name, not for the
// word: reading a rate limiter's int `tokens`, naming its class or calling
// `tokenExpiry` does nothing with a token; holding one in a String does.
constexpr char kBucketTest[] = R"(package b;
class BucketTest {
  @Test void takesWhileTokensLast() {
    TokenBucket b = new TokenBucket(5);
    assertTrue(b.take(3));
    assertEquals(2, b.tokens);
  }
  @Test void expires() { assertEquals(1700003600L, Expiry.tokenExpiry(1700000000L, 3600)); }
  @Test void rules() { assertTrue(PasswordRules.longEnough(12, 12)); }
  @Test void holds() {
    String refreshToken = fixture();
    assertTrue(new TokenBucket(5).take(refreshToken.length()));
  }
}
)";

TEST(ExclusionTest, SourceMentionIsWhatATestDoesWithTheNameNotTheWord) {
  testing::TempDir dir;
  dir.Write("b/BucketTest.java", kBucketTest);
  auto names = Names({"token", "password"});
  const std::set<std::string> plain = {"tokens"};  // recorded as an int
  EXPECT_EQ(SourceMention(dir.path(), "b.BucketTest#takesWhileTokensLast", names, &plain), "");
  EXPECT_EQ(SourceMention(dir.path(), "b.BucketTest#expires", names, &plain), "");
  EXPECT_EQ(SourceMention(dir.path(), "b.BucketTest#rules", names, &plain), "");
  EXPECT_EQ(SourceMention(dir.path(), "b.BucketTest#holds", names, &plain),
            "test source mentions \"token\" (b/BucketTest.java:11)");
  // Without knowing what `tokens` holds, reading it counts.
  EXPECT_EQ(SourceMention(dir.path(), "b.BucketTest#takesWhileTokensLast", names),
            "test source mentions \"token\" (b/BucketTest.java:6)");
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
