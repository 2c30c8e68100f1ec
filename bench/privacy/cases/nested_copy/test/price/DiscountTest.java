package price;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DiscountTest {
  /** The pricing rules as the business wrote them, to compare against. */
  static final class Reference {
    static int apply(int cents, int loyaltyYears) {
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

  @Test
  void newCustomerPaysFullPrice() {
    assertEquals(1000, new Discount().apply(1000, 0));
  }

  @Test
  void agreesWithTheReference() {
    for (int years = 0; years < 10; years++) {
      assertEquals(Reference.apply(60000, years), new Discount().apply(60000, years));
    }
  }
}
