// Tests for observer/characterize.h on hand-written observations of small
// classes compiled with the real javac: which calls are rebuilt, what is
// asserted, why a call is not rebuilt; the generated tests compile and pass
// under the real JUnit console launcher.
#include "observer/characterize.h"

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "common/proto_io.h"
#include "common/subprocess.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::observer {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kBox[] = R"(package p;
public class Box {
  int size;
  String label;
  Box next;
  public Box self() { return this; }
  public Box copy() { Box b = new Box(); b.size = size; b.label = label; return b; }
  public static long sum(long[] xs) { long s = 0; for (long x : xs) s += x; return s; }
  public static String describe(Object o) { return o == null ? "none" : "some"; }
  public static String describe(Box b) { return "box"; }
  public static int first(Pair pair) { return pair.a; }
  public static int hash(java.util.List<String> list) { return list.size(); }
  private int hidden() { return 1; }
  public static void grow(int[] xs) { for (int i = 0; i < xs.length; i++) xs[i]++; }
}
)";

constexpr char kPair[] = R"(package p;
public class Pair {
  final int a;
  public Pair(int a) { this.a = a; }
}
)";

// Observations of p.Box, one per line of text format.
const char* const kObservations[] = {
    // 1: sum of a long array.
    R"(method { class_name: "p.Box" name: "sum" jvm_descriptor: "([J)J" is_static: true }
       args { ref: 1 }
       pre { id: 1 class_name: "[J" array { element_descriptor: "J" length: 2
             elements { long_value: 5 } elements { long_value: -9000000000 } } }
       outcome { returned { long_value: -8999999995 } })",
    // 2: a receiver returned as itself; its fields asserted afterwards.
    R"(method { class_name: "p.Box" name: "self" jvm_descriptor: "()Lp/Box;" }
       receiver { ref: 2 }
       pre { id: 2 class_name: "p.Box" fields { name: "size" value { int_value: 3 } }
             fields { name: "label" value { string_value: "a \"quoted\"\nlabel" } }
             fields { name: "next" value { null_value {} } } }
       post { id: 2 class_name: "p.Box" fields { name: "size" value { int_value: 3 } }
             fields { name: "label" value { string_value: "a \"quoted\"\nlabel" } }
             fields { name: "next" value { null_value {} } } }
       outcome { returned { ref: 2 } })",
    // 3: a new object returned: its class and fields.
    R"(method { class_name: "p.Box" name: "copy" jvm_descriptor: "()Lp/Box;" }
       receiver { ref: 3 }
       pre { id: 3 class_name: "p.Box" fields { name: "size" value { int_value: 7 } }
             fields { name: "label" value { null_value {} } }
             fields { name: "next" value { ref: 4 } } }
       pre { id: 4 class_name: "p.Box" fields { name: "size" value { int_value: 1 } }
             fields { name: "label" value { string_value: "inner" } }
             fields { name: "next" value { null_value {} } } }
       post { id: 5 class_name: "p.Box" fields { name: "size" value { int_value: 7 } }
             fields { name: "label" value { null_value {} } }
             fields { name: "next" value { null_value {} } } }
       outcome { returned { ref: 5 } })",
    // 4: the Object overload, called with a Box: the cast keeps it.
    R"(method { class_name: "p.Box" name: "describe" jvm_descriptor: "(Ljava/lang/Object;)Ljava/lang/String;" is_static: true }
       args { ref: 6 }
       pre { id: 6 class_name: "p.Box" fields { name: "size" value { int_value: 0 } }
             fields { name: "label" value { null_value {} } }
             fields { name: "next" value { null_value {} } } }
       outcome { returned { string_value: "some" } })",
    // 5: an array changed in place.
    R"(method { class_name: "p.Box" name: "grow" jvm_descriptor: "([I)V" is_static: true }
       args { ref: 7 }
       pre { id: 7 class_name: "[I" array { element_descriptor: "I" length: 2
             elements { int_value: 1 } elements { int_value: 2 } } }
       post { id: 7 class_name: "[I" array { element_descriptor: "I" length: 2
             elements { int_value: 2 } elements { int_value: 3 } } }
       outcome { returned_void {} })",
    // Not rebuilt, one reason each:
    R"(method { class_name: "p.Box" name: "hidden" jvm_descriptor: "()I" }
       receiver { ref: 8 } pre { id: 8 class_name: "p.Box" }
       outcome { returned { int_value: 1 } })",
    R"(method { class_name: "p.Box" name: "<init>" jvm_descriptor: "()V" }
       outcome { returned_void {} })",
    R"(method { class_name: "p.Box" name: "sum" jvm_descriptor: "([J)J" is_static: true }
       args { ref: 9 }
       pre { id: 9 class_name: "[J" array { element_descriptor: "J" length: 300
             elements { long_value: 1 } } }
       outcome { returned { long_value: 300 } })",
    R"(method { class_name: "p.Box" name: "first" jvm_descriptor: "(Lp/Pair;)I" is_static: true }
       args { ref: 10 }
       pre { id: 10 class_name: "p.Pair" fields { name: "a" value { int_value: 4 } } }
       outcome { returned { int_value: 4 } })",
    R"(method { class_name: "p.Box" name: "hash" jvm_descriptor: "(Ljava/util/List;)I" is_static: true }
       args { ref: 11 } pre { id: 11 class_name: "java.util.ArrayList" }
       outcome { returned { int_value: 0 } })",
    R"(method { class_name: "p.Box" name: "describe" jvm_descriptor: "(Lp/Box;)Ljava/lang/String;" is_static: true }
       args { ref: 12 }
       pre { id: 12 class_name: "p.Box" fields { name: "size" value { redacted {} } }
             fields { name: "label" value { null_value {} } }
             fields { name: "next" value { null_value {} } } }
       outcome { returned { string_value: "box" } })",
    R"(method { class_name: "p.Box" name: "describe" jvm_descriptor: "(Lp/Box;)Ljava/lang/String;" is_static: true }
       args { ref: 13 }
       pre { id: 13 class_name: "p.Box" fields { name: "size" value { int_value: 2 } } }
       outcome { returned { string_value: "box" } })",
    // A repeat of the first call.
    R"(method { class_name: "p.Box" name: "sum" jvm_descriptor: "([J)J" is_static: true }
       args { ref: 14 }
       pre { id: 14 class_name: "[J" array { element_descriptor: "J" length: 2
             elements { long_value: 5 } elements { long_value: -9000000000 } } }
       outcome { returned { long_value: -8999999995 } })",
};

// Writes the observations given in text format (one each, recorded, in
// order) to `path`.
bool WriteTextObservations(const std::string& path, const char* const* begin,
                           const char* const* end) {
  std::vector<v1::Observation> observations;
  uint64_t sequence = 0;
  for (const char* const* text = begin; text != end; ++text) {
    v1::Observation o;
    if (!google::protobuf::TextFormat::ParseFromString(*text, &o)) {
      ADD_FAILURE() << *text;
      return false;
    }
    o.set_format_version(v1::FORMAT_VERSION_1);
    o.set_source(v1::RECORDED);
    o.set_sequence(++sequence);
    observations.push_back(o);
  }
  return WriteObservations(path, observations).ok();
}

// Compiles the generated test `file` against `classes` and runs it under
// the JUnit console launcher: its output ("" and a failure when javac or
// a test fails).
std::string CompileAndRun(testing::TempDir& dir, const std::string& classes,
                          const std::string& file) {
  std::string compiled = dir.path() + "/test-classes";
  EXPECT_TRUE(MakeDirs(compiled).ok());
  auto javac = RunSubprocess({"javac", "-nowarn", "-d", compiled, "-cp",
                              classes + ":" + testing::JunitJar(), file});
  EXPECT_TRUE(javac.ok() && javac->Succeeded())
      << (javac.ok() ? javac->stderr_data : "") << ReadFile(file).value_or("");
  if (!javac.ok() || !javac->Succeeded()) return "";
  auto junit = RunSubprocess({"java", "-jar", testing::JunitJar(), "--disable-banner",
                              "--disable-ansi-colors", "--class-path",
                              compiled + ":" + classes, "--scan-class-path"});
  EXPECT_TRUE(junit.ok());
  if (!junit.ok()) return "";
  EXPECT_EQ(junit->exit_code, 0) << junit->stdout_data;
  return junit->stdout_data;
}

class CharacterizeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    classes_ = testing::CompileJava(dir_, {{"p/Box.java", kBox}, {"p/Pair.java", kPair}});
    ASSERT_FALSE(classes_.empty());
    observations_ = dir_.path() + "/observations.pb";
    ASSERT_TRUE(WriteTextObservations(observations_, std::begin(kObservations),
                                      std::end(kObservations)));
  }

  CharacterizeOptions Options(const std::string& out) {
    CharacterizeOptions options;
    options.observations = observations_;
    options.classpath = classes_;
    options.out_dir = dir_.path() + "/" + out;
    return options;
  }

  testing::TempDir dir_;
  std::string classes_;
  std::string observations_;
};

TEST_F(CharacterizeTest, RebuildsWhatItCanAndSaysWhyNotForTheRest) {
  auto result = Characterize(Options("out"));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->calls, 13);
  EXPECT_EQ(result->tests, 5);
  EXPECT_EQ(result->duplicates, 1);
  ASSERT_EQ(result->files.size(), 1u);
  EXPECT_EQ(result->files[0], "p/BoxCharacterizationTest.java");
  std::vector<std::string> why;
  for (const NotRebuilt& n : result->not_rebuilt) {
    why.push_back(absl::StrCat(n.method, " ", n.sequence, ": ", n.why));
  }
  EXPECT_THAT(why, ::testing::ElementsAre(
                       "p.Box#<init>()V 7: constructors are not replayed",
                       "p.Box#describe(Lp/Box;)Ljava/lang/String; 11: field p.Box.size was "
                       "withheld by the policy",
                       "p.Box#describe(Lp/Box;)Ljava/lang/String; 12: field p.Box.label was "
                       "not recorded",
                       "p.Box#first(Lp/Pair;)I 9: p.Pair has no constructor without parameters",
                       "p.Box#hash(Ljava/util/List;)I 10: an input of the JDK's class "
                       "java.util.ArrayList (not rebuilt field by field)",
                       "p.Box#hidden()I 6: a private method (a test cannot call it)",
                       "p.Box#sum([J)J 8: an array recorded in part (1 of 300 elements)"));
  std::string text = ReadFile(dir_.path() + "/out/p/BoxCharacterizationTest.java").value_or("");
  EXPECT_THAT(text, HasSubstr("long[] v1 = new long[] {5L, -9000000000L};\n"
                              "    assertEquals(-8999999995L, p.Box.sum(v1));"));
  EXPECT_THAT(text, HasSubstr("assertSame(v1, v1.self());"));
  EXPECT_THAT(text, HasSubstr("Replay.set(v1, \"p.Box\", \"label\", "
                              "\"a \\\"quoted\\\"\\nlabel\");"));
  EXPECT_THAT(text, HasSubstr("Replay.set(v1, \"p.Box\", \"next\", v2);"));
  EXPECT_THAT(text, HasSubstr("Object result = v1.copy();\n"
                              "    assertEquals(\"p.Box\", result.getClass().getName());\n"
                              "    assertEquals((Object) 7, Replay.get(result, \"p.Box\", "
                              "\"size\"));\n    assertNull(Replay.get(result, \"p.Box\", "
                              "\"label\"));"));
  EXPECT_THAT(text, HasSubstr("assertEquals(\"some\", p.Box.describe((java.lang.Object) v1));"));
  EXPECT_THAT(text, HasSubstr("p.Box.grow(v1);\n    assertArrayEquals(new int[] {2, 3}, v1);"));
  std::string listing = ReadFile(dir_.path() + "/out/not-rebuilt.txt").value_or("");
  EXPECT_THAT(listing, HasSubstr("7 of 13 calls."));
  EXPECT_THAT(listing, HasSubstr("p.Box#hidden()I call 6: a private method"));

  // The tests compile against the classes and pass on them.
  EXPECT_THAT(CompileAndRun(dir_, classes_, dir_.path() + "/out/p/BoxCharacterizationTest.java"),
              HasSubstr("5 tests successful"));
}

// An enum input is taken by its constant's name (recorded as the field
// java.lang.Enum.name), also for a constant with a body (a subclass); an
// enum input whose name was not recorded says so.
TEST(CharacterizeEnumTest, AnEnumInputIsItsConstant) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"q/Light.java", R"(package q;
public enum Light { RED, GREEN { @Override public String toString() { return "go"; } } })"},
            {"q/Signal.java", R"(package q;
public class Signal {
  public static int seconds(Light light) { return light == Light.RED ? 60 : 30; }
})"}});
  ASSERT_FALSE(classes.empty());
  const char* const observations[] = {
      R"(method { class_name: "q.Signal" name: "seconds" jvm_descriptor: "(Lq/Light;)I" is_static: true }
         args { ref: 1 }
         pre { id: 1 class_name: "q.Light"
               fields { declaring_class: "java.lang.Enum" name: "name" value { string_value: "RED" } }
               fields { declaring_class: "java.lang.Enum" name: "ordinal" value { int_value: 0 } } }
         outcome { returned { int_value: 60 } })",
      R"(method { class_name: "q.Signal" name: "seconds" jvm_descriptor: "(Lq/Light;)I" is_static: true }
         args { ref: 2 }
         pre { id: 2 class_name: "q.Light$1"
               fields { declaring_class: "java.lang.Enum" name: "name" value { string_value: "GREEN" } }
               fields { declaring_class: "java.lang.Enum" name: "ordinal" value { int_value: 1 } } }
         outcome { returned { int_value: 30 } })",
      R"(method { class_name: "q.Signal" name: "seconds" jvm_descriptor: "(Lq/Light;)I" is_static: true }
         args { ref: 3 }
         pre { id: 3 class_name: "q.Light" }
         outcome { returned { int_value: 60 } })",
  };
  ASSERT_TRUE(WriteTextObservations(dir.path() + "/observations.pb", std::begin(observations),
                                    std::end(observations)));
  CharacterizeOptions options;
  options.observations = dir.path() + "/observations.pb";
  options.classpath = classes;
  options.out_dir = dir.path() + "/out";
  auto result = Characterize(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->tests, 2);
  ASSERT_EQ(result->not_rebuilt.size(), 1u);
  EXPECT_EQ(result->not_rebuilt[0].why,
            "a constant of the enum q.Light whose name was not recorded (the policy records no "
            "field java.lang.Enum.name)");
  const std::string file = dir.path() + "/out/q/SignalCharacterizationTest.java";
  std::string text = ReadFile(file).value_or("");
  EXPECT_THAT(text, HasSubstr("q.Light v1 = q.Light.valueOf(\"RED\");"));
  EXPECT_THAT(text, HasSubstr("q.Light v1 = q.Light.valueOf(\"GREEN\");"));
  EXPECT_THAT(text, Not(HasSubstr("Replay.newInstance")));
  EXPECT_THAT(CompileAndRun(dir, classes, file), HasSubstr("2 tests successful"));
}

TEST_F(CharacterizeTest, MethodsSelectCallsAndMustHaveSome) {
  CharacterizeOptions options = Options("grow");
  options.methods = {"p.Box#grow", "p.Box#sum([J)J"};
  auto result = Characterize(options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->calls, 4);
  EXPECT_EQ(result->tests, 2);

  options = Options("none");
  options.methods = {"p.Box#grow", "p.Box#missing"};
  result = Characterize(options);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("no recorded calls of p.Box#missing"));
  EXPECT_FALSE(FileExists(dir_.path() + "/none/not-rebuilt.txt"));

  options.methods = {"Box#"};
  EXPECT_EQ(Characterize(options).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tracespec::observer
