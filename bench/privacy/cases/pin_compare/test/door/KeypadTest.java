package door;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class KeypadTest {
  @Test
  void wrongCodesStayLocked() {
    Keypad k = new Keypad();
    assertFalse(k.unlock(1234));
    assertFalse(k.unlock(0));
    assertEquals(2, k.attempts);
  }

  @Test
  void negativeCodeStaysLocked() {
    assertFalse(new Keypad().unlock(-7));
  }
}
