package arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class ReverserTest {
  private final Reverser reverser = new Reverser();

  @Test
  void oddLength() {
    int[] a = {1, 2, 3};
    reverser.reverse(a);
    assertArrayEquals(new int[] {3, 2, 1}, a);
  }

  @Test
  void evenLength() {
    int[] a = {1, 2, 3, 4};
    reverser.reverse(a);
    assertArrayEquals(new int[] {4, 3, 2, 1}, a);
  }

  @Test
  void single() {
    int[] a = {5};
    reverser.reverse(a);
    assertArrayEquals(new int[] {5}, a);
  }

  @Test
  void empty() {
    int[] a = {};
    reverser.reverse(a);
    assertArrayEquals(new int[] {}, a);
  }

  @Test
  void twiceRestores() {
    int[] a = {9, -1, 4};
    reverser.reverse(a);
    reverser.reverse(a);
    assertArrayEquals(new int[] {9, -1, 4}, a);
  }
}
