package auth;

import java.util.UUID;

/** Binds a connection to its session for the load balancer. */
public class Binding {
  private final UUID sessionToken;
  public long routeHigh;
  public long routeLow;

  public Binding(UUID sessionToken) {
    this.sessionToken = sessionToken;
  }

  public boolean bind() {
    routeHigh = sessionToken.getMostSignificantBits();
    routeLow = sessionToken.getLeastSignificantBits();
    return routeHigh != 0 || routeLow != 0;
  }
}
