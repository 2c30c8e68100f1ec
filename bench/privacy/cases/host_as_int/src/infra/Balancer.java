package infra;

import java.net.InetAddress;
import java.nio.ByteBuffer;

/** Sends a client to the backend behind a private address. */
public class Balancer {
  private final InetAddress privateBackend;
  public int target;

  public Balancer(InetAddress privateBackend) {
    this.privateBackend = privateBackend;
  }

  public boolean assign(int client) {
    target = ByteBuffer.wrap(privateBackend.getAddress()).getInt();
    return client >= 0;
  }
}
