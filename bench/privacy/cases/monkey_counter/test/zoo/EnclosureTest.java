package zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EnclosureTest {
  @Test
  void admitsUpToCapacity() {
    Enclosure e = new Enclosure(6);
    assertTrue(e.admit(4));
    assertFalse(e.admit(3));
    assertEquals(4, e.monkeys);
  }
}
