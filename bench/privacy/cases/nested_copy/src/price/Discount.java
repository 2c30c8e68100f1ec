package price;

/** Loyalty discounts on a basket. */
public class Discount {
  public int apply(int cents, int loyaltyYears) {
    int pct = 0;
    if (loyaltyYears >= 7) {
      pct = 15;
    } else if (loyaltyYears >= 3) {
      pct = 8;
    } else if (loyaltyYears >= 1) {
      pct = 2;
    }
    if (cents > 50000) {
      pct += 5;
    }
    return cents * (100 - pct) / 100;
  }
}
