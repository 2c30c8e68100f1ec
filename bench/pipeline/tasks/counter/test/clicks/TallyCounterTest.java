package clicks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TallyCounterTest {
  @Test
  void startsAtZero() {
    assertEquals(0, new TallyCounter(5).getCount());
  }

  @Test
  void clickAddsOne() {
    TallyCounter counter = new TallyCounter(5);
    counter.click();
    assertEquals(1, counter.getCount());
  }

  @Test
  void clicksAddUp() {
    TallyCounter counter = new TallyCounter(5);
    counter.click();
    counter.click();
    counter.click();
    assertEquals(3, counter.getCount());
  }

  @Test
  void fullCounterRefuses() {
    TallyCounter counter = new TallyCounter(2);
    counter.click();
    counter.click();
    assertThrows(IllegalStateException.class, counter::click);
    assertEquals(2, counter.getCount());
  }

  @Test
  void zeroLimitRefusesAtOnce() {
    assertThrows(IllegalStateException.class, () -> new TallyCounter(0).click());
  }
}
