// Tests for project/reachable_classes.h on classes compiled by javac: what
// a test class reaches through code, descriptors, annotations, nested
// classes and Class.forName strings, and that an unrelated class is left out.
#include "project/reachable_classes.h"

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::project {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(ReachableClassesTest, FollowsEveryWayAClassNamesAnother) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir,
      {{"p/Uses.java",
        "package p;\n"
        "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)\n"
        "public @interface Uses { Class<?> value(); }\n"},
       {"p/T.java",
        "package p;\n"
        "@Uses(Fixture.class)\n"
        "public class T {\n"
        "  static class Helper { int k() { return new Made().n(); } }\n"
        "  int run(Param x) throws Exception {\n"
        "    Class.forName(\"p.Loaded\");\n"
        "    return new Helper().k();\n"
        "  }\n"
        "}\n"},
       {"p/Fixture.java", "package p;\npublic class Fixture {}\n"},
       {"p/Made.java", "package p;\npublic class Made extends Base { int n() { return 1; } }\n"},
       {"p/Base.java", "package p;\npublic class Base {}\n"},
       {"p/Param.java", "package p;\npublic class Param {}\n"},
       {"p/Loaded.java", "package p;\npublic class Loaded {}\n"},
       {"p/Unrelated.java", "package p;\npublic class Unrelated { Made m; }\n"}});
  ASSERT_FALSE(classes.empty());
  auto reached = ReachableClassFiles({classes}, {"p.T"});
  ASSERT_TRUE(reached.ok()) << reached.status();
  auto file = [&](const char* name) { return absl::StrCat(classes, "/p/", name, ".class"); };
  // Sorted by path: "T$Helper.class" before "T.class".
  EXPECT_THAT(*reached, ElementsAre(file("Base"), file("Fixture"), file("Loaded"), file("Made"),
                                    file("Param"), file("T$Helper"), file("T"), file("Uses")));

  // Roots that are not there reach nothing; a second directory is searched
  // too; a damaged class file is reached but not followed.
  auto none = ReachableClassFiles({classes}, {"p.Missing"});
  ASSERT_TRUE(none.ok());
  EXPECT_THAT(*none, IsEmpty());
  ASSERT_TRUE(WriteFileAtomic(file("Base"), "not a class file").ok());
  auto damaged = ReachableClassFiles({dir.path() + "/nowhere", classes}, {"p.Made"});
  ASSERT_TRUE(damaged.ok()) << damaged.status();
  EXPECT_THAT(*damaged, ElementsAre(file("Base"), file("Made")));
}

}  // namespace
}  // namespace tracespec::project
