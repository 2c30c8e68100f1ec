package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DigitsTest {
  private final Digits digits = new Digits();

  @Test
  void zeroHasOneDigit() {
    assertEquals(1, digits.count(0));
  }

  @Test
  void singleDigit() {
    assertEquals(1, digits.count(7));
  }

  @Test
  void powerOfTen() {
    assertEquals(3, digits.count(100));
  }

  @Test
  void justBelowPowerOfTen() {
    assertEquals(2, digits.count(99));
  }

  @Test
  void maxInt() {
    assertEquals(10, digits.count(Integer.MAX_VALUE));
  }

  @Test
  void negativeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> digits.count(-5));
  }
}
