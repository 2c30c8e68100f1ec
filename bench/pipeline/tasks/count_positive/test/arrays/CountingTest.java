package arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CountingTest {
  private final Counting counting = new Counting();

  @Test
  void mixed() {
    assertEquals(2, counting.countPositive(new int[] {-1, 3, 0, 8}));
  }

  @Test
  void zeroIsNotPositive() {
    assertEquals(0, counting.countPositive(new int[] {0, 0}));
  }

  @Test
  void allPositive() {
    assertEquals(3, counting.countPositive(new int[] {1, 2, 3}));
  }

  @Test
  void empty() {
    assertEquals(0, counting.countPositive(new int[] {}));
  }

  @Test
  void extremes() {
    assertEquals(1, counting.countPositive(new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE}));
  }
}
