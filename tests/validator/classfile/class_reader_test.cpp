// Tests of ParseClassFile on classes compiled by javac and on malformed
// input (every truncation, corrupted bytes): errors name the byte offset.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"
#include "validator/classfile/class_file.h"
#include "validator/classfile/descriptors.h"

namespace tracespec::classfile {
namespace {

const char* kSource = R"java(
package demo;

public class Sample implements Runnable {
  static final int LIMIT = 42;
  static final String NAME = "sample";
  private long total;
  protected double[] weights;

  public void run() {}

  int sum(int[] values, int bias) {
    int s = bias;
    for (int v : values) s += v;
    try {
      s = s / bias;
    } catch (ArithmeticException e) {
      s = -1;
    }
    switch (s) {
      case 1: return 10;
      case 2: return 20;
      case 1000: return 30;
      default: return s;
    }
  }

  String describe(Object o) {
    return "value " + o + " of " + NAME;
  }
}
)java";

class ClassReaderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    std::string classes = testing::CompileJava(*dir_, {{"demo/Sample.java", kSource}},
                                               {"-g", "-parameters"});
    auto bytes = ReadFile(classes + "/demo/Sample.class");
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    bytes_ = new std::string(*bytes);
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete bytes_;
  }
  static testing::TempDir* dir_;
  static std::string* bytes_;
};

testing::TempDir* ClassReaderTest::dir_ = nullptr;
std::string* ClassReaderTest::bytes_ = nullptr;

TEST_F(ClassReaderTest, ReadsStructure) {
  auto cf = ParseClassFile(*bytes_, "Sample.class");
  ASSERT_TRUE(cf.ok()) << cf.status();
  EXPECT_EQ(cf->name, "demo/Sample");
  EXPECT_EQ(cf->super_name, "java/lang/Object");
  ASSERT_EQ(cf->interfaces.size(), 1u);
  EXPECT_EQ(cf->interfaces[0], "java/lang/Runnable");
  EXPECT_EQ(cf->source_file, "Sample.java");
  EXPECT_GE(cf->major_version, 61);
  const Field* limit = cf->FindField("LIMIT", "I");
  ASSERT_NE(limit, nullptr);
  EXPECT_TRUE(limit->is_static() && limit->is_final());
  ASSERT_NE(limit->constant_value_index, 0);
  EXPECT_EQ(cf->pool.at(limit->constant_value_index).bits32, 42u);
  const Field* name = cf->FindField("NAME", "Ljava/lang/String;");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(cf->pool.StringValue(name->constant_value_index), "sample");
  EXPECT_NE(cf->FindField("weights", "[D"), nullptr);
}

TEST_F(ClassReaderTest, ReadsCodeAttributes) {
  auto cf = ParseClassFile(*bytes_, "Sample.class");
  ASSERT_TRUE(cf.ok()) << cf.status();
  const Method* sum = cf->FindMethod("sum", "([II)I");
  ASSERT_NE(sum, nullptr);
  ASSERT_TRUE(sum->code.has_value());
  const Code& code = *sum->code;
  EXPECT_GT(code.max_locals, 2);
  EXPECT_GT(code.max_stack, 0);
  ASSERT_EQ(code.handlers.size(), 1u);
  EXPECT_EQ(code.handlers[0].catch_type, "java/lang/ArithmeticException");
  EXPECT_FALSE(code.lines.empty());
  EXPECT_EQ(code.LineOf(0), 13u);  // int s = bias;
  EXPECT_EQ(cf->ParameterNames(*sum), (std::vector<std::string>{"values", "bias"}));
  bool saw_switch = false, saw_idiv = false;
  for (const Instruction& ins : code.instructions) {
    if (ins.opcode == kLookupswitch) {
      saw_switch = true;
      ASSERT_EQ(ins.cases.size(), 3u);
      EXPECT_EQ(ins.cases[2].first, 1000);
      EXPECT_GE(code.IndexOfPc(ins.default_target), 0);
    }
    if (ins.opcode == kIdiv) saw_idiv = true;
  }
  EXPECT_TRUE(saw_switch);
  EXPECT_TRUE(saw_idiv);
  // String concatenation uses invokedynamic with a bootstrap method.
  EXPECT_FALSE(cf->bootstrap_methods.empty());
}

TEST_F(ClassReaderTest, EveryTruncationIsAnErrorWithAnOffset) {
  for (size_t n = 0; n < bytes_->size(); ++n) {
    auto cf = ParseClassFile(absl::string_view(*bytes_).substr(0, n), "cut.class");
    ASSERT_FALSE(cf.ok()) << "prefix of " << n << " bytes parsed";
    EXPECT_TRUE(absl::StartsWith(cf.status().message(), "cut.class: byte "))
        << cf.status().message();
  }
}

TEST_F(ClassReaderTest, CorruptionsNeverCrash) {
  // Flip each byte in turn: parsing must fail cleanly or succeed.
  int failures = 0;
  for (size_t i = 0; i < bytes_->size(); ++i) {
    std::string copy = *bytes_;
    copy[i] = static_cast<char>(copy[i] ^ 0x5A);
    auto cf = ParseClassFile(copy, "flip.class");
    if (!cf.ok()) {
      ++failures;
      EXPECT_TRUE(absl::StrContains(cf.status().message(), "byte ")) << cf.status().message();
    }
  }
  EXPECT_GT(failures, 0);
}

// NestHost and NestMembers tie the classes compiled from one file to its
// top-level class: nested, inner, local and anonymous ones alike.
TEST(ClassReaderNests, HostListsEveryClassOfItsFileAndMembersNameTheHost) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(dir, {{"n/Outer.java", R"java(
package n;
public class Outer {
  static class Nested { class Inner {} }
  Runnable r = new Runnable() { public void run() {} };
  void m() { class Local {} new Local(); }
}
class Beside {}
)java"}});
  ASSERT_FALSE(classes.empty());
  auto outer = ParseClassFile(ReadFile(classes + "/n/Outer.class").value(), "Outer.class");
  ASSERT_TRUE(outer.ok()) << outer.status();
  EXPECT_EQ(outer->nest_host, "");
  std::vector<std::string> members = outer->nest_members;
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, (std::vector<std::string>{"n/Outer$1", "n/Outer$1Local", "n/Outer$Nested",
                                               "n/Outer$Nested$Inner"}));
  for (const char* member : {"Outer$1", "Outer$1Local", "Outer$Nested$Inner"}) {
    auto cf = ParseClassFile(ReadFile(absl::StrCat(classes, "/n/", member, ".class")).value(),
                             member);
    ASSERT_TRUE(cf.ok()) << cf.status();
    EXPECT_EQ(cf->nest_host, "n/Outer") << member;
    EXPECT_TRUE(cf->nest_members.empty()) << member;
  }
  // Another top-level class of the same file is no nest member; only its
  // SourceFile says where it came from.
  auto beside = ParseClassFile(ReadFile(classes + "/n/Beside.class").value(), "Beside.class");
  ASSERT_TRUE(beside.ok()) << beside.status();
  EXPECT_EQ(beside->nest_host, "");
  EXPECT_EQ(beside->source_file, "Outer.java");

  // Each class's own InnerClasses entry: source modifiers, simple name,
  // the class it is a member of (none for local and anonymous classes).
  EXPECT_FALSE(outer->nested.has_value());
  EXPECT_FALSE(beside->nested.has_value());
  struct Expected {
    const char* file;
    const char* simple;
    const char* outer;
    bool is_static;
  };
  for (const Expected& e : {Expected{"Outer$Nested", "Nested", "n/Outer", true},
                            Expected{"Outer$Nested$Inner", "Inner", "n/Outer$Nested", false},
                            Expected{"Outer$1", "", "", false},
                            Expected{"Outer$1Local", "Local", "", false}}) {
    auto cf = ParseClassFile(ReadFile(absl::StrCat(classes, "/n/", e.file, ".class")).value(),
                             e.file);
    ASSERT_TRUE(cf.ok()) << cf.status();
    ASSERT_TRUE(cf->nested.has_value()) << e.file;
    EXPECT_EQ(cf->nested->simple_name, e.simple) << e.file;
    EXPECT_EQ(cf->nested->outer, e.outer) << e.file;
    EXPECT_EQ((cf->nested->access & kAccStatic) != 0, e.is_static) << e.file;
  }
}

TEST(ClassReaderErrors, NamesTheProblem) {
  auto bad_magic = ParseClassFile(std::string("\xCA\xFE\xBA\xBF\0\0\0\x3D", 8), "x.class");
  ASSERT_FALSE(bad_magic.ok());
  EXPECT_EQ(bad_magic.status().message(), "x.class: byte 0: not a class file (bad magic number)");
  auto bad_version = ParseClassFile(std::string("\xCA\xFE\xBA\xBE\0\0\0\x10", 8), "y.class");
  ASSERT_FALSE(bad_version.ok());
  EXPECT_TRUE(absl::StrContains(bad_version.status().message(), "major version 16"));
  // A constant pool whose only entry has an unknown tag.
  std::string unknown_tag("\xCA\xFE\xBA\xBE\0\0\0\x3D\0\x02\x63", 11);
  auto tag = ParseClassFile(unknown_tag, "z.class");
  ASSERT_FALSE(tag.ok());
  EXPECT_EQ(tag.status().message(), "z.class: byte 10: constant 1: unknown tag 99");
}

TEST(Descriptors, ParseAndPrint) {
  auto md = ParseMethodDescriptor("(I[JLjava/lang/String;[[Lpkg/A;)V");
  ASSERT_TRUE(md.ok());
  EXPECT_EQ(md->params,
            (std::vector<std::string>{"I", "[J", "Ljava/lang/String;", "[[Lpkg/A;"}));
  EXPECT_EQ(md->ret, "V");
  EXPECT_FALSE(ParseMethodDescriptor("(I").ok());
  EXPECT_FALSE(ParseMethodDescriptor("(Q)V").ok());
  EXPECT_FALSE(ParseMethodDescriptor("()").ok());
  EXPECT_FALSE(IsFieldDescriptor("L;"));
  EXPECT_FALSE(IsFieldDescriptor("V"));
  EXPECT_EQ(DescriptorToJava("[[I"), "int[][]");
  EXPECT_EQ(DescriptorToJava("Lpkg/A$B;"), "pkg.A$B");
  EXPECT_EQ(ClassNameToDescriptor("pkg/A"), "Lpkg/A;");
  EXPECT_EQ(DescriptorToClassName("[I"), "[I");
}

}  // namespace
}  // namespace tracespec::classfile
