// project/config.h on real directories and class files compiled by javac.
#include "project/config.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::project {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ConfigTest, DiscoversAMavenLayout) {
  testing::TempDir dir;
  dir.Write("target/classes/.keep", "");
  dir.Write("target/test-classes/.keep", "");
  dir.Write("src/test/java/.keep", "");
  absl::StatusOr<Project> p = LoadProject(dir.path());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->source, v1::CONFIG_SOURCE_MAVEN);
  EXPECT_EQ(p->description, "maven layout: target/classes, target/test-classes, src/test/java");
  EXPECT_THAT(p->config.classes(), ElementsAre(p->dir + "/target/classes"));
  EXPECT_EQ(p->config.tests_src(), p->dir + "/src/test/java");
}

TEST(ConfigTest, DiscoversAGradleLayout) {
  testing::TempDir dir;
  dir.Write("build/classes/java/main/.keep", "");
  absl::StatusOr<Project> p = LoadProject(dir.path() + "/");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->source, v1::CONFIG_SOURCE_GRADLE);
  EXPECT_EQ(p->description, "gradle layout: build/classes/java/main");
  EXPECT_TRUE(p->config.test_classes().empty());
}

TEST(ConfigTest, AConfigFileWinsAndItsPathsAreRelativeToTheProject) {
  testing::TempDir dir;
  dir.Write("target/classes/.keep", "");
  dir.Write("tracespec.textproto",
            "classes: \"out/main\"\nclasspath: \"/opt/lib.jar\"\ntests_src: \"t\"\n"
            "model { endpoint { url: \"http://127.0.0.1:1/v1\" model: \"m\" "
            "egress_policy: \"egress.textproto\" } }\n");
  absl::StatusOr<Project> p = LoadProject(dir.path());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->source, v1::CONFIG_SOURCE_FILE);
  EXPECT_EQ(MainClassPath(*p), p->dir + "/out/main:/opt/lib.jar");
  EXPECT_EQ(p->config.tests_src(), p->dir + "/t");
  EXPECT_EQ(p->config.model().endpoint().egress_policy(), p->dir + "/egress.textproto");
}

TEST(ConfigTest, BadConfigurationsAreNamed) {
  testing::TempDir dir;
  dir.Write("tracespec.textproto", "classes: \"c\"\nmodel { endpoint { url: \"http://x\" } }\n");
  absl::StatusOr<Project> p = LoadProject(dir.path());
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("model.endpoint needs url, model and egress_policy"));

  dir.Write("tracespec.textproto", "tests: \"x\"\n");
  p = LoadProject(dir.path());
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), HasSubstr("no 'classes' entry"));

  // Bounds the validator does not take are bad configuration, named with
  // their line, before anything runs (they ended every method Stopped).
  for (const auto& [bounds, want] : std::vector<std::pair<std::string, std::string>>{
           {"bounds { unwind: -3 }", ":2: bounds.unwind -3 is outside 1..1000000"},
           {"bounds {\n  max_array: 99999\n}", ":3: bounds.max_array 99999 is outside 1..4096"},
           {"bounds { check_timeout_seconds: -1 }", ":2: bounds.check_timeout_seconds -1 is outside"}}) {
    dir.Write("tracespec.textproto", "classes: \"c\"\n" + bounds + "\n");
    p = LoadProject(dir.path());
    ASSERT_FALSE(p.ok()) << bounds;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(p.status().message(), HasSubstr("tracespec.textproto" + want)) << bounds;
  }
  dir.Write("tracespec.textproto", "classes: \"c\"\nbounds { unwind: 8 max_array: 0 }\n");
  EXPECT_THAT(LoadProject(dir.path()).status().message(), Not(HasSubstr("bounds")));

  p = LoadProject(dir.path() + "/missing");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kNotFound);
}

TEST(ConfigTest, TheMainSourcesDefaultToSrcMainJavaAndMustNotHoldTheTests) {
  testing::TempDir dir;
  dir.Write("target/classes/.keep", "");
  dir.Write("src/test/java/.keep", "");
  absl::StatusOr<Project> p = LoadProject(dir.path());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->config.sources().empty());  // No src/main/java: none.

  dir.Write("src/main/java/.keep", "");
  p = LoadProject(dir.path());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(p->config.sources(), ElementsAre(p->dir + "/src/main/java"));

  dir.Write("tracespec.textproto", "classes: \"target/classes\"\ntests_src: \"src/test/java\"\n");
  p = LoadProject(dir.path());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(p->config.sources(), ElementsAre(p->dir + "/src/main/java"));

  dir.Write("lib/Main.java", "");
  dir.Write("tracespec.textproto",
            "classes: \"target/classes\"\nsources: \"lib\"\nsources: \"lib/Main.java\"\n");
  p = LoadProject(dir.path());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(p->config.sources(), ElementsAre(p->dir + "/lib", p->dir + "/lib/Main.java"));

  dir.Write("tracespec.textproto", "classes: \"target/classes\"\nsources: \"gone\"\n");
  p = LoadProject(dir.path());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(p.status().message(), HasSubstr("sources entry "));
  EXPECT_THAT(p.status().message(), HasSubstr("/gone does not exist"));

  dir.Write("tracespec.textproto",
            "classes: \"target/classes\"\nsources: \"src\"\ntests_src: \"src/test/java\"\n");
  p = LoadProject(dir.path());
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(),
              HasSubstr("/src holds the test sources (tests_src "));
  EXPECT_THAT(p.status().message(), HasSubstr("name the main sources only"));
}

class ResolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string classes = testing::CompileJava(
        dir_, {{"shop/Cart.java",
                "package shop;\npublic class Cart {\n  private int n;\n  public Cart() {}\n"
                "  public void add(int k) { n += k; }\n  public void add(int k, int times) { n += k * times; }\n"
                "  public int size() { return n; }\n  int hidden() { return n; }\n"
                "  public static class Line { public int q() { return 1; } }\n}\n"},
               {"shop/Sku.java",
                "package shop;\npublic interface Sku { int code(); }\n"}});
    ASSERT_FALSE(classes.empty());
    std::string tests = testing::CompileJava(
        tests_dir_,
        {{"shop/CartTest.java",
          "package shop;\npublic class CartTest {\n"
          "  @org.junit.jupiter.api.Test void t() {}\n}\n"},
         {"shop/Helper.java", "package shop;\npublic class Helper {}\n"},
         {"shop/AbstractTest.java",
          "package shop;\npublic abstract class AbstractTest {\n"
          "  @org.junit.jupiter.params.ParameterizedTest\n"
          "  @org.junit.jupiter.params.provider.ValueSource(ints = {1})\n"
          "  void t(int x) {}\n}\n"},
         {"shop/InheritedTest.java",
          "package shop;\npublic class InheritedTest extends AbstractTest {}\n"},
         {"shop/TestUtil.java", "package shop;\npublic class TestUtil {}\n"}},
        {}, testing::JunitJar());
    ASSERT_FALSE(tests.empty());
    project_.dir = dir_.path();
    project_.description = "test";
    project_.config.add_classes(classes);
    project_.config.add_test_classes(tests);
  }

  testing::TempDir dir_;
  testing::TempDir tests_dir_;
  Project project_;
};

TEST_F(ResolveTest, EveryPublicMethodOfTopLevelClassesByDefault) {
  absl::StatusOr<std::vector<std::string>> targets = ResolveTargets(project_);
  ASSERT_TRUE(targets.ok()) << targets.status();
  EXPECT_THAT(*targets, ElementsAre("shop.Cart#add(I)V", "shop.Cart#add(II)V", "shop.Cart#size()I"));
}

TEST_F(ResolveTest, MethodsAndClassGlobs) {
  project_.config.add_methods("shop.Cart#add");
  project_.config.add_target_classes("shop.Cart$*");
  absl::StatusOr<std::vector<std::string>> targets = ResolveTargets(project_);
  ASSERT_TRUE(targets.ok()) << targets.status();
  EXPECT_THAT(*targets, ElementsAre("shop.Cart#add(I)V", "shop.Cart#add(II)V", "shop.Cart$Line#q()I"));

  project_.config.clear_target_classes();
  project_.config.add_methods("shop.Cart#nope");
  targets = ResolveTargets(project_);
  ASSERT_FALSE(targets.ok());
  EXPECT_THAT(targets.status().message(), HasSubstr("declares no such method"));
}

TEST_F(ResolveTest, TestClassesByConventionOrByGlob) {
  absl::StatusOr<std::vector<std::string>> tests = ResolveTests(project_);
  ASSERT_TRUE(tests.ok()) << tests.status();
  EXPECT_THAT(*tests, ElementsAre("shop.CartTest", "shop.InheritedTest", "shop.TestUtil"));

  // A glob stands for the JUnit test classes it matches (concrete, with a
  // test annotation of their own or inherited), sorted, after the names
  // given before it; each class once.
  project_.config.add_tests("shop.TestUtil");
  project_.config.add_tests("shop.*Test");
  project_.config.add_tests("shop.*");
  tests = ResolveTests(project_);
  ASSERT_TRUE(tests.ok()) << tests.status();
  EXPECT_THAT(*tests, ElementsAre("shop.TestUtil", "shop.CartTest", "shop.InheritedTest"));

  project_.config.add_tests("other.*");
  tests = ResolveTests(project_);
  ASSERT_FALSE(tests.ok());
  EXPECT_THAT(tests.status().message(),
              HasSubstr("tracespec.textproto: tests 'other.*' matches no JUnit test class on " +
                        project_.config.test_classes(0)));

  project_.config.clear_tests();
  project_.config.add_tests("shop.Nope");
  tests = ResolveTests(project_);
  ASSERT_FALSE(tests.ok());
  EXPECT_THAT(tests.status().message(), HasSubstr("'shop.Nope' matches no class"));
}

// A test class, target class or method of the configuration file that
// is not there is named with the file and the line of its entry.
TEST_F(ResolveTest, AMissingClassOrMethodNamesItsLineInTheConfiguration) {
  auto load = [&](const std::string& entries) {
    dir_.Write("tracespec.textproto",
               absl::StrCat("classes: \"", project_.config.classes(0), "\"\ntest_classes: \"",
                            project_.config.test_classes(0), "\"\n", entries));
    absl::StatusOr<Project> p = LoadProject(dir_.path());
    EXPECT_TRUE(p.ok()) << p.status();
    return p.value_or(Project());
  };
  Project p = load("tests: \"shop.CartTest\"\n# the next one is gone\ntests: \"shop.NoSuchTest\"\n");
  absl::StatusOr<std::vector<std::string>> tests = ResolveTests(p);
  ASSERT_FALSE(tests.ok());
  EXPECT_THAT(std::string(tests.status().message()),
              ::testing::StartsWith(absl::StrCat(p.description, ":5: test class 'shop.NoSuchTest' "
                                                 "matches no class under ")));

  p = load("target_classes: [\n  \"shop.Cart\",\n  \"shop.Gone\"\n]\n");
  absl::StatusOr<std::vector<std::string>> targets = ResolveTargets(p);
  ASSERT_FALSE(targets.ok());
  EXPECT_THAT(std::string(targets.status().message()),
              ::testing::StartsWith(absl::StrCat(p.description, ":5: target class 'shop.Gone'")));

  p = load("methods: \"shop.Cart#size\"\nmethods: \"shop.Cart#nope\"\n");
  targets = ResolveTargets(p);
  ASSERT_FALSE(targets.ok());
  EXPECT_THAT(std::string(targets.status().message()),
              ::testing::StartsWith(absl::StrCat(p.description, ":4: method 'shop.Cart#nope': shop.Cart "
                                                 "declares no such method")));

  // A class file that is there but cannot be read is not "not under".
  dir_.Write(absl::StrCat(project_.config.classes(0).substr(dir_.path().size() + 1),
                          "/shop/Broken.class"),
             std::string("\xca\xfe\xba\xbe\x00\x00", 6));
  p = load("methods: \"shop.Broken#f\"\n");
  targets = ResolveTargets(p);
  ASSERT_FALSE(targets.ok());
  EXPECT_THAT(std::string(targets.status().message()),
              ::testing::StartsWith(absl::StrCat(p.description, ":3: method 'shop.Broken#f': ")));
  EXPECT_THAT(std::string(targets.status().message()), ::testing::HasSubstr("Broken.class"));
  EXPECT_THAT(std::string(targets.status().message()), Not(::testing::HasSubstr("is not under")));

  // Without a configuration file (the fixture's project): no line to name.
  project_.config.add_tests("shop.Nope");
  tests = ResolveTests(project_);
  ASSERT_FALSE(tests.ok());
  EXPECT_THAT(std::string(tests.status().message()), ::testing::StartsWith("test class 'shop.Nope'"));
}

}  // namespace
}  // namespace tracespec::project
