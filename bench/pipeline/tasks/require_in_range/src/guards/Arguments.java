package guards;

/** Argument checks that return the value they accept. */
public class Arguments {
  /** Returns {@code v} when lo <= v <= hi, else throws IllegalArgumentException. */
  public static int requireInRange(int v, int lo, int hi) {
    if (v < lo || v > hi) {
      throw new IllegalArgumentException(v + " not in [" + lo + ", " + hi + "]");
    }
    return v;
  }
}
