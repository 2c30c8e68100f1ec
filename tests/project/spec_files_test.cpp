// project/spec_files.h on class files compiled by javac.
#include "project/spec_files.h"

#include "gmock/gmock.h"
#include "validator/jml/parser.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::project {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

class SpecFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    classes_ = testing::CompileJava(
        dir_,
        {{"p/Box.java",
          "package p;\npublic final class Box extends Base {\n  private int size;\n"
          "  protected Item first;\n  public int open;\n  private static final int CAP = 9;\n"
          "  public synchronized final void put(Item item, int n) { size += n; first = item; }\n"
          "  public static int cap() { return CAP; }\n"
          "  public boolean same(Box other) { return other.size == size; }\n}\n"},
         {"p/Base.java", "package p;\npublic abstract class Base { int inherited; }\n"},
         {"p/Item.java", "package p;\npublic class Item { private long weight; }\n"}},
        {"-g"});
    ASSERT_FALSE(classes_.empty());
  }

  testing::TempDir dir_;
  std::string classes_;
  std::vector<std::string> ours_ = {"p.Base", "p.Box", "p.Item"};
};

TEST_F(SpecFilesTest, ModifiersAndSpecPublicFromTheClassFiles) {
  absl::StatusOr<SpecFiles> specs = RenderSpecFiles(
      {{"p.Box#put(Lp/Item;I)V",
        "//@ public normal_behavior\n//@   ensures size == \\old(size) + n && first.weight >= 0 "
        "&& inherited == 0 && open == 0;\n",
        "Success 11"},
       {"p.Box#cap()I", "//@ ensures \\result == CAP;\n", ""},
       {"p.Box#same(Lp/Box;)Z", "//@ ensures \\result == (other.size == this.size);\n", ""}},
      classes_, ours_);
  ASSERT_TRUE(specs.ok()) << specs.status();
  std::vector<std::string> files;
  for (const auto& [name, content] : specs->files) files.push_back(name);
  EXPECT_THAT(files, ElementsAre("p/Base.jml", "p/Box.jml", "p/Item.jml"));
  const std::string& box = specs->files["p/Box.jml"];
  EXPECT_THAT(box, HasSubstr("package p;\n"));
  EXPECT_THAT(box, HasSubstr("public final class Box extends p.Base {\n"));
  EXPECT_THAT(box, HasSubstr("  private /*@ spec_public @*/ int size;\n"));
  EXPECT_THAT(box, HasSubstr("  protected /*@ spec_public @*/ p.Item first;\n"));
  EXPECT_THAT(box, HasSubstr("  private /*@ spec_public @*/ static final int CAP;\n"));
  EXPECT_THAT(box, Not(HasSubstr("int open;")));
  EXPECT_THAT(box, HasSubstr("  // Success 11\n  //@ public normal_behavior\n"));
  EXPECT_THAT(box, HasSubstr("  public final synchronized void put(p.Item item, int n);\n"));
  EXPECT_THAT(box, HasSubstr("  public static int cap();\n"));
  EXPECT_THAT(box, HasSubstr("  public boolean same(p.Box other);\n"));
  // Fields of other project classes named through a chain get their own file.
  EXPECT_THAT(specs->files["p/Item.jml"], HasSubstr("private /*@ spec_public @*/ long weight;"));
  EXPECT_THAT(specs->files["p/Base.jml"], HasSubstr("public abstract class Base {"));
  EXPECT_THAT(specs->files["p/Base.jml"], HasSubstr("/*@ spec_public @*/ int inherited;"));
  EXPECT_EQ(specs->file_of["p.Box#cap()I"], "p/Box.jml");
}

TEST_F(SpecFilesTest, AContractsNullableDeclarationCarriesOver) {
  // The contract ends with its own declaration (a case for a null
  // argument); the file declares the method once, from the class file's
  // modifiers, with the contract's nullity.
  absl::StatusOr<SpecFiles> specs = RenderSpecFiles(
      {{"p.Box#same(Lp/Box;)Z",
        "//@ requires other == null;\n//@ signals_only NullPointerException;\n"
        "public boolean same(/*@ nullable @*/ p.Box other);\n",
        ""}},
      classes_, ours_);
  ASSERT_TRUE(specs.ok()) << specs.status();
  const std::string& box = specs->files["p/Box.jml"];
  EXPECT_THAT(box, HasSubstr("  //@ signals_only NullPointerException;\n"
                             "  public boolean same(/*@ nullable @*/ p.Box other);\n}"));
  EXPECT_THAT(box, Not(HasSubstr("  public boolean same(/*@ nullable @*/ p.Box other);\n  public")));
}

TEST_F(SpecFilesTest, ClassesOutsideTheProjectGetNoFile) {
  absl::StatusOr<SpecFiles> specs = RenderSpecFiles(
      {{"p.Box#put(Lp/Item;I)V", "//@ ensures first.weight >= 0;\n", ""}}, classes_,
      {"p.Box"});
  ASSERT_TRUE(specs.ok()) << specs.status();
  EXPECT_EQ(specs->files.count("p/Item.jml"), 0u);
}

TEST_F(SpecFilesTest, AnUnknownMethodIsAnError) {
  absl::StatusOr<SpecFiles> specs =
      RenderSpecFiles({{"p.Box#nope()V", "//@ ensures true;\n", ""}}, classes_, ours_);
  ASSERT_FALSE(specs.ok());
  EXPECT_THAT(specs.status().message(), HasSubstr("p.Box#nope()V"));
}

// Member classes are declared, with their source modifiers, in the body
// of the class they belong to, in the top-level class's file, at any
// depth; a local or anonymous class and a nested class's constructor get
// no declaration (their contracts stay in the infer directory); the file
// parses and names every nested method by its binary class name.
TEST(SpecFilesNestedTest, MemberClassesAreDeclaredInTheirEnclosingClass) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir,
      {{"q/Outer.java",
        "package q;\npublic class Outer {\n"
        "  public static final class Inner {\n"
        "    private int base = 3;\n"
        "    public Inner() {}\n"
        "    public int plusBase(int x) { return x + base; }\n"
        "    protected abstract static class Deep { int d; public int id(int x) { return x + d; } }\n"
        "  }\n"
        "  private class Member { public int get() { return 7; } }\n"
        "  public Runnable anon() { return new Runnable() { public void run() {} }; }\n"
        "  public int one() { return 1; }\n}\n"}},
      {"-g"});
  ASSERT_FALSE(classes.empty());
  absl::StatusOr<SpecFiles> specs = RenderSpecFiles(
      {{"q.Outer#one()I", "//@ ensures \\result == 1;\n", "Success 11"},
       {"q.Outer$Inner#plusBase(I)I", "//@ ensures \\result == x + base;\n", "Success 11"},
       {"q.Outer$Inner$Deep#id(I)I", "//@ ensures \\result == x + d;\n", ""},
       {"q.Outer$Member#get()I", "//@ ensures \\result == 7;\n", ""},
       {"q.Outer$1#run()V", "//@ ensures true;\n", ""},
       {"q.Outer$Inner#<init>()V", "//@ ensures base == 3;\n", ""}},
      classes,
      {"q.Outer", "q.Outer$Inner", "q.Outer$Inner$Deep", "q.Outer$Member", "q.Outer$1"});
  ASSERT_TRUE(specs.ok()) << specs.status();
  std::vector<std::string> files;
  for (const auto& [name, content] : specs->files) files.push_back(name);
  EXPECT_THAT(files, ElementsAre("q/Outer.jml"));
  EXPECT_EQ(specs->files["q/Outer.jml"],
            "// q.Outer: specification written by tracespec run\n"
            "package q;\n"
            "\n"
            "public class Outer {\n"
            "  // Success 11\n"
            "  //@ ensures \\result == 1;\n"
            "  public int one();\n"
            "\n"
            "  public static final class Inner {\n"
            "    private /*@ spec_public @*/ int base;\n"
            "\n"
            "    // Success 11\n"
            "    //@ ensures \\result == x + base;\n"
            "    public int plusBase(int x);\n"
            "\n"
            "    protected static abstract class Deep {\n"
            "      /*@ spec_public @*/ int d;\n"
            "\n"
            "      //@ ensures \\result == x + d;\n"
            "      public int id(int x);\n"
            "    }\n"
            "  }\n"
            "\n"
            "  private class Member {\n"
            "    //@ ensures \\result == 7;\n"
            "    public int get();\n"
            "  }\n"
            "}\n");
  for (const char* m : {"q.Outer#one()I", "q.Outer$Inner#plusBase(I)I",
                        "q.Outer$Inner$Deep#id(I)I", "q.Outer$Member#get()I"}) {
    EXPECT_EQ(specs->file_of[m], "q/Outer.jml") << m;
  }
  EXPECT_THAT(specs->skipped["q.Outer$1#run()V"], HasSubstr("a local or anonymous class"));
  EXPECT_THAT(specs->skipped["q.Outer$Inner#<init>()V"], HasSubstr("a constructor of a nested"));
  EXPECT_EQ(specs->file_of.count("q.Outer$1#run()V"), 0u);

  // An interface is declared as one, its superinterfaces after `extends`.
  std::string shapes = testing::CompileJava(
      dir, {{"q/Shape.java",
             "package q;\npublic interface Shape extends Runnable {\n"
             "  default int sides() { return 0; }\n}\n"}});
  ASSERT_FALSE(shapes.empty());
  absl::StatusOr<SpecFiles> shape =
      RenderSpecFiles({{"q.Shape#sides()I", "//@ ensures \\result == 0;\n", ""}}, shapes, {"q.Shape"});
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_THAT(shape->files["q/Shape.jml"],
              HasSubstr("\npublic interface Shape extends Runnable {\n"));

  absl::StatusOr<std::unique_ptr<jml::CompilationUnit>> unit =
      jml::ParseJmlFile(specs->files["q/Outer.jml"], "q/Outer.jml");
  ASSERT_TRUE(unit.ok()) << unit.status();
  const jml::TypeDecl* deep = (*unit)->FindType("q.Outer$Inner$Deep");
  ASSERT_NE(deep, nullptr);
  ASSERT_EQ(deep->methods.size(), 1u);
  EXPECT_EQ(deep->methods[0].name, "id");
  EXPECT_FALSE(deep->methods[0].spec.empty());
}

}  // namespace
}  // namespace tracespec::project
