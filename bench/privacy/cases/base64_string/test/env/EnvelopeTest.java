package env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EnvelopeTest {
  @Test
  void sealCountsMessages() {
    Envelope e = new Envelope(Accounts.material());
    e.seal(7);
    e.seal(8);
    assertEquals(2, e.sealed);
  }

  @Test
  void headerStartsWithTheMessageId() {
    Envelope e = new Envelope(Accounts.material());
    e.seal(31);
    assertTrue(e.header.startsWith("31:"));
  }
}
