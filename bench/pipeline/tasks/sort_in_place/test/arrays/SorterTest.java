package arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SorterTest {
  private final Sorter sorter = new Sorter();

  @Test
  void sortsUnordered() {
    int[] a = {3, 1, 2};
    sorter.sort(a);
    assertArrayEquals(new int[] {1, 2, 3}, a);
  }

  @Test
  void keepsSorted() {
    int[] a = {1, 2, 3, 4};
    sorter.sort(a);
    assertArrayEquals(new int[] {1, 2, 3, 4}, a);
  }

  @Test
  void reversed() {
    int[] a = {4, 3, 2, 1};
    sorter.sort(a);
    assertArrayEquals(new int[] {1, 2, 3, 4}, a);
  }

  @Test
  void duplicatesAndNegatives() {
    int[] a = {2, -1, 2, 0};
    sorter.sort(a);
    assertArrayEquals(new int[] {-1, 0, 2, 2}, a);
  }

  @Test
  void emptyAndSingle() {
    int[] empty = {};
    sorter.sort(empty);
    assertArrayEquals(new int[] {}, empty);
    int[] one = {9};
    sorter.sort(one);
    assertArrayEquals(new int[] {9}, one);
  }

  @Test
  void nullThrows() {
    assertThrows(NullPointerException.class, () -> sorter.sort(null));
  }
}
