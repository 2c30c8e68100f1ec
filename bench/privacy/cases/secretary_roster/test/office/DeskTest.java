package office;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DeskTest {
  @Test
  void assigningTheSamePersonTwiceIsOneChange() {
    Desk d = new Desk();
    d.assign("Ines Mora");
    d.assign("Ines Mora");
    assertEquals(1, d.changes);
  }
}
