package gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class TurnstileTest {
  @Test
  void strangerIsRefused() {
    Turnstile t = new Turnstile();
    assertFalse(t.admit(5));
    assertEquals(0, t.passes);
  }

  @Test
  void negativeIsRefused() {
    assertFalse(new Turnstile().admit(-60));
  }
}
