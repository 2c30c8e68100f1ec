package bits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MasksTest {
  private final Masks masks = new Masks();

  @Test
  void flipsLowBit() {
    assertEquals(0b1010, masks.toggle(0b1011, 0b0001));
  }

  @Test
  void zeroMaskKeepsValue() {
    assertEquals(12345, masks.toggle(12345, 0));
  }

  @Test
  void toggleTwiceRestores() {
    assertEquals(77, masks.toggle(masks.toggle(77, 0xF0), 0xF0));
  }

  @Test
  void allOnesComplements() {
    assertEquals(~5, masks.toggle(5, -1));
  }

  @Test
  void signBit() {
    assertEquals(Integer.MIN_VALUE, masks.toggle(0, Integer.MIN_VALUE));
  }
}
