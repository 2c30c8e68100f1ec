package arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TotalsTest {
  private final Totals totals = new Totals();

  @Test
  void smallArray() {
    assertEquals(10, totals.sum(new int[] {1, 2, 3, 4}));
  }

  @Test
  void empty() {
    assertEquals(0, totals.sum(new int[0]));
  }

  @Test
  void mixedSigns() {
    assertEquals(0, totals.sum(new int[] {5, -5, 3, -3}));
  }

  @Test
  void noIntOverflow() {
    assertEquals(2L * Integer.MAX_VALUE, totals.sum(new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE}));
  }

  @Test
  void single() {
    assertEquals(-8, totals.sum(new int[] {-8}));
  }
}
