package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DiscountTest {
  @Test
  void tenPercentOff() {
    assertEquals(900, Discount.apply(1000, 10));
  }

  @Test
  void noDiscountAndFullDiscount() {
    assertEquals(1999, Discount.apply(1999, 0));
    assertEquals(0, Discount.apply(1999, 100));
  }

  @Test
  void percentagesOutsideZeroToHundredAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> Discount.apply(1000, 101));
    assertThrows(IllegalArgumentException.class, () -> Discount.apply(1000, -1));
  }
}
