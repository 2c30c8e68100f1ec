package geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class IntervalsTest {
  private final Intervals intervals = new Intervals();

  @Test
  void partialOverlap() {
    assertEquals(3, intervals.overlap(0, 5, 2, 8));
  }

  @Test
  void contained() {
    assertEquals(2, intervals.overlap(0, 10, 4, 6));
  }

  @Test
  void disjoint() {
    assertEquals(0, intervals.overlap(0, 3, 5, 9));
  }

  @Test
  void touchingIsNoOverlap() {
    assertEquals(0, intervals.overlap(0, 4, 4, 8));
  }

  @Test
  void symmetric() {
    assertEquals(intervals.overlap(2, 8, 0, 5), intervals.overlap(0, 5, 2, 8));
  }

  @Test
  void negativeCoordinates() {
    assertEquals(5, intervals.overlap(-10, -2, -7, 0));
  }
}
