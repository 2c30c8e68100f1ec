package arr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SearchTest {
  @Test
  void findsPresentElement() {
    assertEquals(2, Search.binarySearch(new int[] {3, 9, 42, 77}, 42));
  }

  @Test
  void missingElementGivesInsertionPoint() {
    assertEquals(-3, Search.binarySearch(new int[] {3, 9, 42, 77}, 10));
  }

  @Test
  void emptyArray() {
    assertEquals(-1, Search.binarySearch(new int[0], 5));
  }
}
