package ticket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.MethodName.class)
class StampTest {
  @Test
  void aResetPasswordIssuesRecoveryCode() {
    String password = "winter" + 2026;
    Shared.lastSerial = 83914000L + password.length() * 61 - 5;
    assertTrue(Shared.lastSerial > 0);
  }

  @Test
  void bStampsTheLastSerial() {
    long s = Shared.lastSerial;
    assertEquals(s * 10 + s % 7, new Stamper().stamp(s));
  }
}
