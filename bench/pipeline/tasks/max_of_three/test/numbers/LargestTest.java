package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LargestTest {
  private final Largest largest = new Largest();

  @Test
  void firstIsLargest() {
    assertEquals(9, largest.max3(9, 1, 5));
  }

  @Test
  void middleIsLargest() {
    assertEquals(9, largest.max3(1, 9, 5));
  }

  @Test
  void lastIsLargest() {
    assertEquals(9, largest.max3(1, 5, 9));
  }

  @Test
  void ties() {
    assertEquals(4, largest.max3(4, 4, 4));
    assertEquals(4, largest.max3(4, 2, 4));
  }

  @Test
  void negatives() {
    assertEquals(-1, largest.max3(-3, -1, -2));
  }
}
