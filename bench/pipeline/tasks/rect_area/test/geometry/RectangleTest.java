package geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RectangleTest {
  private final Rectangle rectangle = new Rectangle();

  @Test
  void square() {
    assertEquals(16, rectangle.area(4, 4));
  }

  @Test
  void wide() {
    assertEquals(30, rectangle.area(10, 3));
  }

  @Test
  void degenerate() {
    assertEquals(0, rectangle.area(0, 9));
  }

  @Test
  void hugeSidesUseLong() {
    assertEquals(4611686014132420609L, rectangle.area(Integer.MAX_VALUE, Integer.MAX_VALUE));
  }

  @Test
  void negativeWidthIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> rectangle.area(-1, 5));
  }

  @Test
  void negativeHeightIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> rectangle.area(5, -1));
  }
}
