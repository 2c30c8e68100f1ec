package guards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RangesTest {
  @Test
  void wholeRange() {
    assertEquals(0, Ranges.checkFromToIndex(0, 5, 5));
  }

  @Test
  void innerRange() {
    assertEquals(2, Ranges.checkFromToIndex(2, 4, 10));
  }

  @Test
  void emptyRangeAtTheEnd() {
    assertEquals(3, Ranges.checkFromToIndex(3, 3, 3));
  }

  @Test
  void negativeStartIsRejected() {
    assertThrows(IndexOutOfBoundsException.class, () -> Ranges.checkFromToIndex(-1, 2, 5));
  }

  @Test
  void reversedRangeIsRejected() {
    assertThrows(IndexOutOfBoundsException.class, () -> Ranges.checkFromToIndex(4, 2, 5));
  }

  @Test
  void endPastLengthIsRejected() {
    assertThrows(IndexOutOfBoundsException.class, () -> Ranges.checkFromToIndex(0, 6, 5));
  }
}
