package sess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UsageTest {
  @Test
  void firstTouchCountsOne() {
    assertEquals(1, new Usage(Sessions.current()).touch());
  }

  @Test
  void touchesAddUp() {
    Usage u = new Usage(Sessions.current());
    u.touch();
    u.touch();
    assertEquals(3, u.touch());
  }
}
