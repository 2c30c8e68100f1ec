package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SeriesTest {
  private final Series series = new Series();

  @Test
  void firstTen() {
    assertEquals(55, series.sumTo(10));
  }

  @Test
  void zero() {
    assertEquals(0, series.sumTo(0));
  }

  @Test
  void one() {
    assertEquals(1, series.sumTo(1));
  }

  @Test
  void hundred() {
    assertEquals(5050, series.sumTo(100));
  }

  @Test
  void negativeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> series.sumTo(-1));
  }
}
