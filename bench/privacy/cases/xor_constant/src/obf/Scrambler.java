package obf;

/** Keeps the vault key scrambled in memory. */
public class Scrambler {
  private static final int MASK = 0x5A;
  private final String vaultKey;
  public int[] scrambled = new int[0];

  public Scrambler(String vaultKey) {
    this.vaultKey = vaultKey;
  }

  public int scramble() {
    int[] out = new int[vaultKey.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = vaultKey.charAt(i) ^ MASK;
    }
    scrambled = out;
    return out.length;
  }
}
