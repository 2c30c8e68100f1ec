package bits;

/** Bit masks for a register. */
public class Masks {
  /** Flips the bits of {@code value} that are set in {@code mask}. */
  public int toggle(int value, int mask) {
    return value ^ mask;
  }
}
