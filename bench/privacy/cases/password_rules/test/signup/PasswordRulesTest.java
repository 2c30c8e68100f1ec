package signup;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PasswordRulesTest {
  @Test
  void twelveIsEnough() {
    assertTrue(PasswordRules.longEnough(12, 12));
  }

  @Test
  void sixIsNot() {
    assertFalse(PasswordRules.longEnough(6, 12));
  }
}
