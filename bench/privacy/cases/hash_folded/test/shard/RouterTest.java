package shard;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RouterTest {
  @Test
  void shardIsInRange() {
    int s = new Router(Tenants.first()).route(8);
    assertTrue(s >= 0 && s < 8);
  }

  @Test
  void oneShardTakesAll() {
    assertTrue(new Router(Tenants.first()).route(1) == 0);
  }
}
