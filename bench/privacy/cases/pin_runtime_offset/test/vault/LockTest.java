package vault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class LockTest {
  @Test
  void wrongCodesStayShut() {
    Lock l = new Lock();
    assertFalse(l.open(12));
    assertFalse(l.open(-7));
    assertFalse(l.open(90001));
    assertEquals(3, l.attempts);
  }
}
