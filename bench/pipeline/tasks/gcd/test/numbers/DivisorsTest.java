package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DivisorsTest {
  private final Divisors divisors = new Divisors();

  @Test
  void commonFactor() {
    assertEquals(6, divisors.gcd(12, 18));
  }

  @Test
  void coprime() {
    assertEquals(1, divisors.gcd(9, 28));
  }

  @Test
  void orderDoesNotMatter() {
    assertEquals(divisors.gcd(48, 36), divisors.gcd(36, 48));
  }

  @Test
  void zeroAndN() {
    assertEquals(7, divisors.gcd(0, 7));
    assertEquals(7, divisors.gcd(7, 0));
  }

  @Test
  void sameNumber() {
    assertEquals(13, divisors.gcd(13, 13));
  }

  @Test
  void negativeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> divisors.gcd(-4, 6));
  }
}
