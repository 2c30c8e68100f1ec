package arrays;

/** Statistics over int arrays. */
public class Stats {
  /** The largest element; the array must not be empty. */
  public int max(int[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("empty array");
    }
    int best = values[0];
    for (int i = 1; i < values.length; i++) {
      if (values[i] > best) {
        best = values[i];
      }
    }
    return best;
  }
}
