package arrays;

/** Sums of int arrays. */
public class Totals {
  /** The sum of all elements, in long arithmetic; 0 for an empty array. */
  public long sum(int[] values) {
    long total = 0;
    for (int v : values) {
      total += v;
    }
    return total;
  }
}
