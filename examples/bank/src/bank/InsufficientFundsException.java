package bank;

/** Thrown when a withdrawal exceeds the balance. */
public class InsufficientFundsException extends RuntimeException {
  private final int balance;
  private final int requested;

  public InsufficientFundsException(int balance, int requested) {
    super("balance " + balance + " is less than " + requested);
    this.balance = balance;
    this.requested = requested;
  }

  public int getBalance() {
    return balance;
  }

  public int getRequested() {
    return requested;
  }
}
