package bank;

/** Opens sub-ledgers numbered after the customer's account. */
public class Ledger {
  private final long accountNumber;
  public long nextLedger;
  public int opened;

  public Ledger(long accountNumber) {
    this.accountNumber = accountNumber;
  }

  public long open() {
    nextLedger = accountNumber + 1;
    opened++;
    return opened;
  }
}
