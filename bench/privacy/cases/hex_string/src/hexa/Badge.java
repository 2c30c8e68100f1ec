package hexa;

/** Renders a badge whose barcode is the hex of the signing key. */
public class Badge {
  private final String signingKey;
  public String barcode = "";

  public Badge(String signingKey) {
    this.signingKey = signingKey;
  }

  public int render() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < signingKey.length(); i++) {
      sb.append(String.format("%02x", (int) signingKey.charAt(i)));
    }
    barcode = sb.toString();
    return barcode.length();
  }
}
