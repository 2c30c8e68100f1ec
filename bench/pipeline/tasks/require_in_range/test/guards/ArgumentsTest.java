package guards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ArgumentsTest {
  @Test
  void insideIsReturned() {
    assertEquals(5, Arguments.requireInRange(5, 1, 10));
  }

  @Test
  void boundsAreInside() {
    assertEquals(1, Arguments.requireInRange(1, 1, 10));
    assertEquals(10, Arguments.requireInRange(10, 1, 10));
  }

  @Test
  void negativeRange() {
    assertEquals(-7, Arguments.requireInRange(-7, -10, -5));
  }

  @Test
  void belowIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Arguments.requireInRange(0, 1, 10));
  }

  @Test
  void aboveIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> Arguments.requireInRange(11, 1, 10));
  }

  @Test
  void emptyRangeRejects() {
    assertThrows(IllegalArgumentException.class, () -> Arguments.requireInRange(3, 4, 2));
  }
}
