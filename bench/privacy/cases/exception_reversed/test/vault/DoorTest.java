package vault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DoorTest {
  @Test
  void badgeDigit() {
    assertEquals(3, new Door(Staff.current()).enter(43));
  }

  @Test
  void negativeBadgeIsRefused() {
    assertThrows(IllegalStateException.class, () -> new Door(Staff.current()).enter(-1));
  }
}
