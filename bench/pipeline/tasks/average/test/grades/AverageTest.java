package grades;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AverageTest {
  private final Average average = new Average();

  @Test
  void wholeMean() {
    assertEquals(3.0, average.mean(new int[] {2, 3, 4}), 1e-12);
  }

  @Test
  void fractionalMean() {
    assertEquals(2.5, average.mean(new int[] {2, 3}), 1e-12);
  }

  @Test
  void singleMark() {
    assertEquals(17.0, average.mean(new int[] {17}), 1e-12);
  }

  @Test
  void negativeMarks() {
    assertEquals(-1.0, average.mean(new int[] {-2, 0}), 1e-12);
  }

  @Test
  void noMarksIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> average.mean(new int[0]));
  }
}
