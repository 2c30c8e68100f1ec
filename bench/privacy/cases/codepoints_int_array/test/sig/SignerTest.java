package sig;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SignerTest {
  @Test
  void prepareCountsRounds() {
    Signer s = new Signer(Config.phrase());
    s.prepare();
    assertEquals(1, s.rounds);
  }

  @Test
  void materialHasOneEntryPerCharacter() {
    Signer s = new Signer(Config.phrase());
    s.prepare();
    s.prepare();
    assertEquals(17, s.material.length);
    assertEquals(2, s.rounds);
  }
}
