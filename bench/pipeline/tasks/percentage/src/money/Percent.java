package money;

/** Percentages of amounts in cents. */
public class Percent {
  /** {@code pct} percent of {@code amount}, rounded toward zero; pct must be in 0..100. */
  public int percentOf(int amount, int pct) {
    if (pct < 0 || pct > 100) {
      throw new IllegalArgumentException("percentage out of range: " + pct);
    }
    return (int) ((long) amount * pct / 100);
  }
}
