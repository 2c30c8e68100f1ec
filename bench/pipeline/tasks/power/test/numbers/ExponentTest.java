package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ExponentTest {
  private final Exponent exponent = new Exponent();

  @Test
  void powersOfTwo() {
    assertEquals(1024, exponent.power(2, 10));
  }

  @Test
  void anythingToTheZero() {
    assertEquals(1, exponent.power(7, 0));
    assertEquals(1, exponent.power(0, 0));
  }

  @Test
  void firstPower() {
    assertEquals(-9, exponent.power(-9, 1));
  }

  @Test
  void negativeBase() {
    assertEquals(-27, exponent.power(-3, 3));
    assertEquals(81, exponent.power(-3, 4));
  }

  @Test
  void squares() {
    assertEquals(144, exponent.power(12, 2));
  }

  @Test
  void negativeExponentIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> exponent.power(2, -1));
  }
}
