package calendar;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class YearsTest {
  private final Years years = new Years();

  @Test
  void ordinaryLeapYear() {
    assertTrue(years.isLeap(2024));
  }

  @Test
  void ordinaryYear() {
    assertFalse(years.isLeap(2023));
  }

  @Test
  void centuryIsNotLeap() {
    assertFalse(years.isLeap(1900));
  }

  @Test
  void fourHundredIsLeap() {
    assertTrue(years.isLeap(2000));
  }

  @Test
  void anotherOrdinaryYear() {
    assertFalse(years.isLeap(2026));
  }
}
