package infra;

import java.net.InetAddress;
import java.net.UnknownHostException;

final class Hosts {
  private Hosts() {}

  static InetAddress backend() throws UnknownHostException {
    return InetAddress.getByAddress(new byte[] {10, 41, 7, (byte) 203});
  }
}
