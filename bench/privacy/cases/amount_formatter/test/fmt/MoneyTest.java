package fmt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MoneyTest {
  @Test
  void twoDecimals() {
    assertEquals("12.50", Money.format(1250));
  }

  @Test
  void negativeSmall() {
    assertEquals("-0.05", Money.format(-5));
  }
}
