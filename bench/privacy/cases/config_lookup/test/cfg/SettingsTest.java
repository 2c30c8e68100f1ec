package cfg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SettingsTest {
  @Test
  void timeoutDefault() {
    assertEquals("30", Settings.lookup("timeout"));
  }

  @Test
  void unknownIsEmpty() {
    assertEquals("", Settings.lookup("colour"));
  }
}
