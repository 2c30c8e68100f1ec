package alley;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FrameTest {
  @Test
  void spare() {
    Frame f = new Frame();
    assertFalse(f.knock(7));
    assertTrue(f.knock(3));
  }

  @Test
  void tooMany() {
    assertThrows(IllegalArgumentException.class, () -> new Frame().knock(11));
  }
}
