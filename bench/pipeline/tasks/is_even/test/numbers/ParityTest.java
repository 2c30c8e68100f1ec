package numbers;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ParityTest {
  private final Parity parity = new Parity();

  @Test
  void even() {
    assertTrue(parity.isEven(4));
  }

  @Test
  void odd() {
    assertFalse(parity.isEven(7));
  }

  @Test
  void zeroIsEven() {
    assertTrue(parity.isEven(0));
  }

  @Test
  void negativeOdd() {
    assertFalse(parity.isEven(-3));
  }

  @Test
  void minValueIsEven() {
    assertTrue(parity.isEven(Integer.MIN_VALUE));
  }
}
