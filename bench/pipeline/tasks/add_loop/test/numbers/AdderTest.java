package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AdderTest {
  private final Adder adder = new Adder();

  @Test
  void positive() {
    assertEquals(7, adder.add(3, 4));
  }

  @Test
  void negativeStep() {
    assertEquals(-1, adder.add(3, -4));
  }

  @Test
  void addZero() {
    assertEquals(12, adder.add(12, 0));
  }

  @Test
  void fromZero() {
    assertEquals(5, adder.add(0, 5));
  }

  @Test
  void bothNegative() {
    assertEquals(-8, adder.add(-6, -2));
  }
}
