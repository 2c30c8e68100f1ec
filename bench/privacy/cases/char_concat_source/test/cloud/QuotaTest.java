package cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class QuotaTest {
  static final String ACCOUNT = "AK" + 'I' + 'A' + "R4T" + 'N' + "8WQJ6" + 'D' + "XE2LBY";

  @Test
  void remainingAfterUse() {
    assertEquals(1950, new Quota().remaining(ACCOUNT, 50));
  }
}
