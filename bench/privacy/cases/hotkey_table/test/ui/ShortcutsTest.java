package ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ShortcutsTest {
  @Test
  void thirdSlot() {
    assertEquals('3', Shortcuts.hotkeyFor(2));
  }

  @Test
  void outOfRange() {
    assertThrows(IllegalArgumentException.class, () -> Shortcuts.hotkeyFor(9));
  }
}
