package geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SegmentTest {
  private final Segment segment = new Segment();

  @Test
  void simple() {
    assertEquals(5.0, segment.midpoint(0.0, 10.0));
  }

  @Test
  void reversed() {
    assertEquals(5.0, segment.midpoint(10.0, 0.0));
  }

  @Test
  void negative() {
    assertEquals(-2.5, segment.midpoint(-5.0, 0.0));
  }

  @Test
  void samePoint() {
    assertEquals(1.25, segment.midpoint(1.25, 1.25));
  }

  @Test
  void nanPropagates() {
    assertTrue(Double.isNaN(segment.midpoint(Double.NaN, 1.0)));
  }
}
