package bank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The tests assert only the balance, as in the paper's motivating example. */
class AccountTest {
  private static final String AUDIT_KEY = "AK-7f3e9c1d-CONFIDENTIAL";

  private AuditService audit;
  private Account account;

  @BeforeEach
  void openAccount() {
    audit = new AuditService();
    account = new Account(100, AUDIT_KEY, audit);
  }

  @Test
  void depositIncreasesBalance() {
    account.deposit(50);
    assertEquals(150, account.getBalance());
  }

  @Test
  void twoDepositsAddUp() {
    account.deposit(1);
    account.deposit(2);
    assertEquals(103, account.getBalance());
  }

  @Test
  void depositMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> account.deposit(0));
    assertEquals(100, account.getBalance());
  }

  @Test
  void withdrawReducesBalance() {
    account.withdraw(30);
    assertEquals(70, account.getBalance());
  }

  @Test
  void withdrawMoreThanBalanceThrows() {
    assertThrows(InsufficientFundsException.class, () -> account.withdraw(101));
    assertEquals(100, account.getBalance());
  }

  @Test
  void auditEntriesAreSignedWithTheSecretKey() {
    account.deposit(25);
    assertEquals(1, audit.entries());
    assertTrue(audit.lastEntry().startsWith("deposit:25:"));
  }
}
