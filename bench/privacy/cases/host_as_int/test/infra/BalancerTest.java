package infra;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BalancerTest {
  @Test
  void clientsArePinned() throws Exception {
    assertTrue(new Balancer(Hosts.backend()).assign(4));
  }

  @Test
  void negativeClientIsNot() throws Exception {
    assertFalse(new Balancer(Hosts.backend()).assign(-1));
  }
}
