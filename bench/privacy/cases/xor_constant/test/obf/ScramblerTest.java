package obf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class ScramblerTest {
  @Test
  void oneWordPerChar() {
    assertEquals(17, new Scrambler(Material.vault()).scramble());
  }

  @Test
  void firstWordIsNotTheCharItself() {
    Scrambler s = new Scrambler(Material.vault());
    s.scramble();
    assertNotEquals('C', s.scrambled[0]);
  }
}
