package arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StatsTest {
  private final Stats stats = new Stats();

  @Test
  void maxInMiddle() {
    assertEquals(9, stats.max(new int[] {1, 9, 4}));
  }

  @Test
  void maxFirst() {
    assertEquals(8, stats.max(new int[] {8, 2, 3}));
  }

  @Test
  void maxLast() {
    assertEquals(5, stats.max(new int[] {1, 2, 5}));
  }

  @Test
  void allNegative() {
    assertEquals(-2, stats.max(new int[] {-7, -2, -30}));
  }

  @Test
  void single() {
    assertEquals(42, stats.max(new int[] {42}));
  }

  @Test
  void emptyIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> stats.max(new int[0]));
  }
}
