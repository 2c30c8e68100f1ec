package oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExpiryTest {
  @Test
  void oneHourLater() {
    assertEquals(1700003600L, Expiry.tokenExpiry(1700000000L, 3600));
  }

  @Test
  void negativeTtlMeansNow() {
    assertEquals(1700000000L, Expiry.tokenExpiry(1700000000L, -5));
  }
}
