package mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConsoleTest {
  @Test
  void armingSetsTheFlag() {
    Console c = new Console(Setup.admin());
    c.arm();
    assertTrue(c.armed);
  }

  @Test
  void watchdogKeepsTheLength() {
    Console c = new Console(Setup.admin());
    c.arm();
    assertEquals(15, c.watchdog.length());
  }
}
