package sig;

/** Prepares signing material from a configured phrase. */
public class Signer {
  private final String apiSecret;
  public int[] material = new int[0];
  public int rounds;

  public Signer(String apiSecret) {
    this.apiSecret = apiSecret;
  }

  public void prepare() {
    int[] cps = new int[apiSecret.length()];
    for (int i = 0; i < cps.length; i++) {
      cps[i] = apiSecret.charAt(i);
    }
    material = cps;
    rounds++;
  }
}
