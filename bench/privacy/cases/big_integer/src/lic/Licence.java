package lic;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/** Activates a product with its licence key. */
public class Licence {
  private final String licenceKey;
  public BigInteger serial = BigInteger.ZERO;

  public Licence(String licenceKey) {
    this.licenceKey = licenceKey;
  }

  public boolean activate() {
    serial = new BigInteger(1, licenceKey.getBytes(StandardCharsets.UTF_8));
    return serial.signum() > 0;
  }
}
