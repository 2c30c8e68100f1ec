package library;

/** One book on loan: days borrowed and renewals left. */
public class Loan {
  private int days;
  private int renewalsLeft;

  public Loan(int days, int renewals) {
    this.days = days;
    this.renewalsLeft = renewals;
  }

  public void renew(int extraDays) {
    if (renewalsLeft == 0) {
      throw new IllegalStateException("no renewals left");
    }
    renewalsLeft--;
    days += extraDays;
  }

  public int days() {
    return days;
  }

  public int renewalsLeft() {
    return renewalsLeft;
  }
}
