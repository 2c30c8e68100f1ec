package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DistanceTest {
  private final Distance distance = new Distance();

  @Test
  void positive() {
    assertEquals(3, distance.absDiff(10, 7));
  }

  @Test
  void reversedOrder() {
    assertEquals(3, distance.absDiff(7, 10));
  }

  @Test
  void same() {
    assertEquals(0, distance.absDiff(-4, -4));
  }

  @Test
  void acrossZero() {
    assertEquals(11, distance.absDiff(-5, 6));
  }

  @Test
  void extremes() {
    assertEquals(4294967295L, distance.absDiff(Integer.MIN_VALUE, Integer.MAX_VALUE));
  }
}
