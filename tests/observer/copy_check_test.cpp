// The bytecode copy check on real javac output: a disguised copy of a
// target's body is found, ordinary tests are not.
#include "observer/copy_check.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/testing.h"

namespace tracespec::observer {
namespace {

constexpr char kAccount[] = R"(package c;
public class Account {
  private int balance;
  private int checksum;
  private int entries;
  public void deposit(int amount) {
    if (amount <= 0) throw new IllegalArgumentException("amount must be positive");
    balance += amount;
    checksum = 31 * checksum + amount;
    if (balance > 1000000) entries = entries + 2; else entries++;
  }
  public int balance() { return balance; }
}
)";

// Copied: fields turned into locals, renamed, reformatted, comments
// between the statements; the other tests only call the method.
constexpr char kAccountTest[] = R"(package c;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.Test;
class AccountTest {
  @Test void depositAdds() {
    Account a = new Account();
    a.deposit(5);
    a.deposit(7);
    assertEquals(12, a.balance());
  }
  @Test void depositRejectsZero() {
    assertThrows(IllegalArgumentException.class, () -> new Account().deposit(0));
  }
  @Test void modelOfDeposit() {
    int bal = 3, sum = 0, n = 0; int x = 9;
    /**/ if (x <= 0) /**/ throw new IllegalArgumentException("nope");
    bal += x; /* keep */
    sum = 31 * sum
        + x;
    if (bal > 1000000) n = n + 2; else n++;
    assertEquals(12, bal + sum * 0 + n * 0);
  }
}
)";

TEST(CopyCheckTest, DisguisedCopyIsFoundAndCallsAreNot) {
  testing::TempDir dir;
  std::string classes = testing::CompileJava(
      dir, {{"c/Account.java", kAccount}, {"c/AccountTest.java", kAccountTest}}, {"-g"},
      testing::JunitJar());
  ASSERT_FALSE(classes.empty());
  auto class_path = classfile::ClassPath::Create(classes);
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  auto found = FindBytecodeCopies(&*class_path, {"c.AccountTest"},
                                  {{"c.Account", {"deposit"}}});
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 1u);
  EXPECT_EQ((*found)[0].test_method, "c.AccountTest#modelOfDeposit");
  EXPECT_EQ((*found)[0].target, "c.Account#deposit(I)V");
  EXPECT_GE((*found)[0].share, kCopyShare);

  // The short getter is below the size limit: never compared.
  found = FindBytecodeCopies(&*class_path, {"c.AccountTest"}, {{"c.Account", {"balance"}}});
  ASSERT_TRUE(found.ok());
  EXPECT_TRUE(found->empty());
}

// The same copy of deposit in classes compiled from a test file other than
// the test class: a nested class, a local class, an anonymous class, and
// another top-level class of the file. The bytecode of the test classes
// themselves holds no copy.
constexpr char kModelBody[] = R"(
    if (x <= 0) throw new IllegalArgumentException("nope");
    bal += x;
    sum = 31 * sum + x;
    if (bal > 1000000) n = n + 2; else n++;
)";

std::map<std::string, std::string> FilesWithModels() {
  const std::string body = kModelBody;
  const std::string head =
      "package c;\nimport static org.junit.jupiter.api.Assertions.*;\n"
      "import org.junit.jupiter.api.Test;\nimport java.util.function.IntConsumer;\n";
  return {
      {"c/Account.java", kAccount},
      {"c/NestedTest.java",
       head + "class NestedTest {\n  static class Model {\n    int bal, sum, n;\n"
              "    void apply(int x) {" + body + "    }\n  }\n"
              "  @Test void usesModel() {\n"
              "    Model m = new Model(); m.apply(3); assertEquals(3, m.bal);\n  }\n"
              "  @Test void callsOnly() { new Account().deposit(3); }\n}\n"},
      {"c/LocalTest.java",
       head + "class LocalTest {\n  @Test void local() {\n    class Model {\n"
              "      int bal, sum, n;\n      void apply(int x) {" + body + "      }\n    }\n"
              "    new Model().apply(4);\n  }\n}\n"},
      {"c/AnonTest.java",
       head + "class AnonTest {\n  @Test void anonymous() {\n"
              "    IntConsumer m = new IntConsumer() {\n      int bal, sum, n;\n"
              "      public void accept(int x) {" + body + "      }\n    };\n"
              "    m.accept(5);\n  }\n}\n"},
      {"c/BesideTest.java",
       head + "class BesideTest {\n  @Test void beside() { new BesideModel().apply(6); }\n}\n"
              "class BesideModel {\n  int bal, sum, n;\n  void apply(int x) {" + body + "  }\n}\n"},
      {"c/CleanTest.java",
       head + "class CleanTest {\n  @Test void calls() { new Account().deposit(7); }\n"
              "  static class Helper { int twice(int v) { return 2 * v; } }\n}\n"},
  };
}

// FilesWithModels compiled with `javac_args` into `dir`, as a class path.
absl::StatusOr<classfile::ClassPath> CompiledModels(const testing::TempDir& dir,
                                                    const std::string& javac_args) {
  std::string classes =
      testing::CompileJava(dir, FilesWithModels(), {javac_args}, testing::JunitJar());
  if (classes.empty()) return absl::InternalError("javac failed");
  return classfile::ClassPath::Create(classes);
}

TEST(CopyCheckTest, CopiesInEveryClassOfTheTestFileAreFound) {
  testing::TempDir dir;
  auto class_path = CompiledModels(dir, "-g");
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  auto found = FindBytecodeCopies(
      &*class_path, {"c.AnonTest", "c.BesideTest", "c.CleanTest", "c.LocalTest", "c.NestedTest"},
      {{"c.Account", {"deposit"}}});
  ASSERT_TRUE(found.ok()) << found.status();
  std::vector<std::string> methods;
  for (const CopyFinding& f : *found) {
    methods.push_back(f.test_method);
    EXPECT_EQ(f.target, "c.Account#deposit(I)V") << f.test_method;
    EXPECT_GE(f.share, kCopyShare) << f.test_method;
  }
  ASSERT_EQ(methods, (std::vector<std::string>{"c.AnonTest$1#accept", "c.BesideModel#apply",
                                               "c.LocalTest$1Model#apply",
                                               "c.NestedTest$Model#apply"}));
  // Each names the classes of its file, whose tests it excludes.
  EXPECT_EQ((*found)[0].file_classes, (std::vector<std::string>{"c.AnonTest", "c.AnonTest$1"}));
  EXPECT_EQ((*found)[1].file_classes,
            (std::vector<std::string>{"c.BesideModel", "c.BesideTest"}));
  EXPECT_EQ((*found)[2].file_classes,
            (std::vector<std::string>{"c.LocalTest", "c.LocalTest$1Model"}));
  EXPECT_EQ((*found)[3].file_classes,
            (std::vector<std::string>{"c.NestedTest", "c.NestedTest$Model"}));

  // A target class is never its own copy.
  found = FindBytecodeCopies(&*class_path, {"c.Account"}, {{"c.Account", {"deposit"}}});
  ASSERT_TRUE(found.ok());
  EXPECT_TRUE(found->empty());
}

TEST(CopyCheckTest, TheClassesOfATestFileComeFromItsNestNamesAndSourceFile) {
  testing::TempDir dir;
  auto class_path = CompiledModels(dir, "-g");
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  std::vector<std::string> listed = class_path->ListClasses();
  const std::vector<std::string> clean = {"c.CleanTest", "c.CleanTest$Helper"};
  EXPECT_EQ(TestFileClasses(&*class_path, "c.CleanTest", listed), clean);
  // A nested class stands for its file.
  EXPECT_EQ(TestFileClasses(&*class_path, "c.CleanTest$Helper", listed), clean);
  EXPECT_TRUE(TestFileClasses(&*class_path, "c.Missing", listed).empty());

  // Without SourceFile (-g:none) the nest still ties nested classes to
  // their file; another top-level class of the file is then not found.
  testing::TempDir bare;
  class_path = CompiledModels(bare, "-g:none");
  ASSERT_TRUE(class_path.ok()) << class_path.status();
  listed = class_path->ListClasses();
  EXPECT_EQ(TestFileClasses(&*class_path, "c.LocalTest", listed),
            (std::vector<std::string>{"c.LocalTest", "c.LocalTest$1Model"}));
  EXPECT_EQ(TestFileClasses(&*class_path, "c.BesideTest", listed),
            (std::vector<std::string>{"c.BesideTest"}));
}

TEST(CopyCheckTest, WinnowingIsDeterministicAndNeedsKTokens) {
  EXPECT_TRUE(Fingerprints({1, 2, 3}).empty());
  std::vector<uint8_t> tokens = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  EXPECT_EQ(Fingerprints(tokens), Fingerprints(tokens));
  EXPECT_FALSE(Fingerprints(tokens).empty());
}

}  // namespace
}  // namespace tracespec::observer
