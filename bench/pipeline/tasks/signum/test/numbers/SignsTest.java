package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SignsTest {
  private final Signs signs = new Signs();

  @Test
  void positive() {
    assertEquals(1, signs.signum(42L));
  }

  @Test
  void negative() {
    assertEquals(-1, signs.signum(-3L));
  }

  @Test
  void zero() {
    assertEquals(0, signs.signum(0L));
  }

  @Test
  void extremes() {
    assertEquals(-1, signs.signum(Long.MIN_VALUE));
    assertEquals(1, signs.signum(Long.MAX_VALUE));
  }
}
