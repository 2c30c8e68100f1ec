package money;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PercentTest {
  private final Percent percent = new Percent();

  @Test
  void tenPercent() {
    assertEquals(250, percent.percentOf(2500, 10));
  }

  @Test
  void fullAmount() {
    assertEquals(999, percent.percentOf(999, 100));
  }

  @Test
  void zeroPercent() {
    assertEquals(0, percent.percentOf(12345, 0));
  }

  @Test
  void roundsDown() {
    assertEquals(3, percent.percentOf(7, 50));
  }

  @Test
  void negativeAmount() {
    assertEquals(-20, percent.percentOf(-80, 25));
  }

  @Test
  void largeAmountDoesNotOverflow() {
    assertEquals(1073741823, percent.percentOf(Integer.MAX_VALUE, 50));
  }

  @Test
  void aboveHundredIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> percent.percentOf(100, 101));
  }

  @Test
  void negativeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> percent.percentOf(100, -1));
  }
}
