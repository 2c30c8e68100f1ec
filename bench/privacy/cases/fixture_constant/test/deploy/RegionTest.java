package deploy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RegionTest {
  @Test
  void regionIsInRange() {
    int r = new Region().of(Deployments.CI_ACCOUNT, 5);
    assertTrue(r >= 0 && r < 5);
  }
}
