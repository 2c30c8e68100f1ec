package arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SearchTest {
  private final Search search = new Search();

  @Test
  void foundInMiddle() {
    assertEquals(1, search.indexOf(new int[] {4, 7, 9}, 7));
  }

  @Test
  void foundAtStart() {
    assertEquals(0, search.indexOf(new int[] {4, 7, 9}, 4));
  }

  @Test
  void firstOfDuplicates() {
    assertEquals(1, search.indexOf(new int[] {0, 3, 3, 3}, 3));
  }

  @Test
  void missing() {
    assertEquals(-1, search.indexOf(new int[] {4, 7, 9}, 5));
  }

  @Test
  void emptyArray() {
    assertEquals(-1, search.indexOf(new int[0], 1));
  }

  @Test
  void negativeKey() {
    assertEquals(2, search.indexOf(new int[] {1, 2, -6}, -6));
  }
}
