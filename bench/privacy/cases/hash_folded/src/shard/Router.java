package shard;

/** Routes a tenant to a shard by the hash of its key. */
public class Router {
  private final String tenantKey;
  public int lastHash;

  public Router(String tenantKey) {
    this.tenantKey = tenantKey;
  }

  public int route(int shards) {
    lastHash = tenantKey.hashCode();
    return Math.floorMod(lastHash, shards);
  }
}
