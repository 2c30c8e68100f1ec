package bits;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FlagsTest {
  private final Flags flags = new Flags();

  @Test
  void bothFalse() {
    assertFalse(flags.exclusiveOr(false, false));
  }

  @Test
  void onlyFirst() {
    assertTrue(flags.exclusiveOr(true, false));
  }

  @Test
  void onlySecond() {
    assertTrue(flags.exclusiveOr(false, true));
  }

  @Test
  void bothTrue() {
    assertFalse(flags.exclusiveOr(true, true));
  }
}
