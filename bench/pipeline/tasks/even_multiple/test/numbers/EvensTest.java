package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class EvensTest {
  private final Evens evens = new Evens();

  @Test
  void evenIsItsOwnMultiple() {
    assertEquals(6, evens.smallestEvenMultiple(6));
  }

  @Test
  void oddIsDoubled() {
    assertEquals(10, evens.smallestEvenMultiple(5));
  }

  @Test
  void one() {
    assertEquals(2, evens.smallestEvenMultiple(1));
  }

  @Test
  void two() {
    assertEquals(2, evens.smallestEvenMultiple(2));
  }

  @Test
  void largerOdd() {
    assertEquals(198, evens.smallestEvenMultiple(99));
  }

  @Test
  void zeroIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> evens.smallestEvenMultiple(0));
  }
}
