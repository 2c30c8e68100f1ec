package guards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class IndexesTest {
  @Test
  void firstIndex() {
    assertEquals(0, Indexes.checkIndex(0, 5));
  }

  @Test
  void lastIndex() {
    assertEquals(4, Indexes.checkIndex(4, 5));
  }

  @Test
  void middleIndex() {
    assertEquals(7, Indexes.checkIndex(7, 20));
  }

  @Test
  void negativeIndexIsRejected() {
    assertThrows(IndexOutOfBoundsException.class, () -> Indexes.checkIndex(-1, 5));
  }

  @Test
  void indexAtLengthIsRejected() {
    assertThrows(IndexOutOfBoundsException.class, () -> Indexes.checkIndex(5, 5));
  }

  @Test
  void emptyRangeRejectsEverything() {
    assertThrows(IndexOutOfBoundsException.class, () -> Indexes.checkIndex(0, 0));
  }

  @Test
  void farOutsideIsRejected() {
    assertThrows(IndexOutOfBoundsException.class, () -> Indexes.checkIndex(Integer.MAX_VALUE, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> Indexes.checkIndex(Integer.MIN_VALUE, 3));
  }
}
