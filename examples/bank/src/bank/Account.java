package bank;

/**
 * A bank account: the motivating example of "Can Formal Specifications Be
 * Synthesized from Tests Alone?". Every change of the balance also updates an
 * internal checksum and is reported to an audit service, signed with a
 * confidential audit key. The tests only look at the balance; the recorded
 * observations show the rest.
 */
public class Account {
  private int balance;
  private int checksum;
  private final String auditKey;
  private final AuditService audit;

  public Account(int openingBalance, String auditKey, AuditService audit) {
    if (openingBalance < 0) {
      throw new IllegalArgumentException("opening balance must not be negative");
    }
    this.balance = openingBalance;
    this.checksum = openingBalance;
    this.auditKey = auditKey;
    this.audit = audit;
  }

  public void deposit(int amount) {
    if (amount <= 0) {
      throw new IllegalArgumentException("deposit must be positive");
    }
    balance += amount;
    checksum = 31 * checksum + amount;
    audit.record(sign("deposit", amount));
  }

  public void withdraw(int amount) {
    if (amount <= 0) {
      throw new IllegalArgumentException("withdrawal must be positive");
    }
    if (amount > balance) {
      throw new InsufficientFundsException(balance, amount);
    }
    balance -= amount;
    checksum = 31 * checksum - amount;
    audit.record(sign("withdraw", amount));
  }

  public int getBalance() {
    return balance;
  }

  private String sign(String operation, int amount) {
    int signature = (auditKey + "/" + operation + "/" + amount).hashCode();
    return operation + ":" + amount + ":" + Integer.toHexString(signature);
  }
}
