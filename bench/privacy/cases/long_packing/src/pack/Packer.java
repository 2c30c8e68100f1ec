package pack;

import java.nio.charset.StandardCharsets;

/** Packs the stored password into words for a hardware register file. */
public class Packer {
  private final String masterPassword;
  public long[] words = new long[0];

  public Packer(String masterPassword) {
    this.masterPassword = masterPassword;
  }

  public int pack() {
    byte[] b = masterPassword.getBytes(StandardCharsets.UTF_8);
    long[] w = new long[(b.length + 7) / 8];
    for (int i = 0; i < b.length; i++) {
      w[i / 8] |= (b[i] & 0xFFL) << (8 * (7 - i % 8));
    }
    words = w;
    return w.length;
  }
}
