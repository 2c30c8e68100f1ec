package safe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class DialTest {
  @Test
  void wrongCodeStaysShut() {
    Dial d = new Dial();
    assertFalse(d.open(100));
    assertEquals(1, d.turns);
  }

  @Test
  void otherCodesStayShut() {
    Dial d = new Dial();
    assertFalse(d.open(0));
    assertFalse(d.open(3));
    assertFalse(d.open(88888));
    assertFalse(d.open(-41));
  }
}
