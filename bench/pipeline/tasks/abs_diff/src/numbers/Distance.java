package numbers;

/** Distances on the integer line. */
public class Distance {
  /** |a - b|, in long arithmetic so that extreme ints do not overflow. */
  public long absDiff(int a, int b) {
    long d = (long) a - b;
    return d < 0 ? -d : d;
  }
}
