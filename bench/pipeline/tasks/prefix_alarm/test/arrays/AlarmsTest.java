package arrays;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AlarmsTest {
  private final Alarms alarms = new Alarms();

  @Test
  void oneReadingAbove() {
    assertTrue(alarms.anyAbove(new int[] {3, 12, 4}, 10));
  }

  @Test
  void lastReadingAbove() {
    assertTrue(alarms.anyAbove(new int[] {1, 2, 3, 40}, 10));
  }

  @Test
  void noneAbove() {
    assertFalse(alarms.anyAbove(new int[] {1, 2, 10}, 10));
  }

  @Test
  void noReadings() {
    assertFalse(alarms.anyAbove(new int[0], 0));
  }

  @Test
  void negativeLimit() {
    assertTrue(alarms.anyAbove(new int[] {-5, -1}, -2));
  }
}
