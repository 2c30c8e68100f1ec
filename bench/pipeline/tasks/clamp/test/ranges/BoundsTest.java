package ranges;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BoundsTest {
  private final Bounds bounds = new Bounds();

  @Test
  void insideIsUnchanged() {
    assertEquals(5, bounds.clamp(5, 0, 10));
  }

  @Test
  void belowGoesToLow() {
    assertEquals(0, bounds.clamp(-3, 0, 10));
  }

  @Test
  void aboveGoesToHigh() {
    assertEquals(10, bounds.clamp(42, 0, 10));
  }

  @Test
  void onTheEdges() {
    assertEquals(0, bounds.clamp(0, 0, 10));
    assertEquals(10, bounds.clamp(10, 0, 10));
  }

  @Test
  void singlePointRange() {
    assertEquals(7, bounds.clamp(100, 7, 7));
    assertEquals(7, bounds.clamp(-100, 7, 7));
  }

  @Test
  void negativeRange() {
    assertEquals(-5, bounds.clamp(0, -10, -5));
  }

  @Test
  void extremes() {
    assertEquals(Integer.MAX_VALUE, bounds.clamp(Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE));
  }

  @Test
  void invertedRangeIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> bounds.clamp(1, 10, 0));
  }
}
