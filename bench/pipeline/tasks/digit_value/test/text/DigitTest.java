package text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DigitTest {
  private final Digit digit = new Digit();

  @Test
  void zero() {
    assertEquals(0, digit.value('0'));
  }

  @Test
  void nine() {
    assertEquals(9, digit.value('9'));
  }

  @Test
  void middle() {
    assertEquals(4, digit.value('4'));
  }

  @Test
  void letterIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> digit.value('a'));
  }

  @Test
  void spaceIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> digit.value(' '));
  }
}
