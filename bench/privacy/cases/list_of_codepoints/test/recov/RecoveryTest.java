package recov;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RecoveryTest {
  @Test
  void oneCodePerChar() {
    assertEquals(17, new Recovery(Phrases.stored()).index());
  }

  @Test
  void listMatchesTheCount() {
    Recovery r = new Recovery(Phrases.stored());
    r.index();
    assertEquals(17, r.codes.size());
  }
}
