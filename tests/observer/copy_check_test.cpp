// The bytecode copy check on real javac output: a disguised copy of a
// target's body is found, ordinary tests are not.
#include "observer/copy_check.h"

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

TEST(CopyCheckTest, WinnowingIsDeterministicAndNeedsKTokens) {
  EXPECT_TRUE(Fingerprints({1, 2, 3}).empty());
  std::vector<uint8_t> tokens = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  EXPECT_EQ(Fingerprints(tokens), Fingerprints(tokens));
  EXPECT_FALSE(Fingerprints(tokens).empty());
}

}  // namespace
}  // namespace tracespec::observer
