package arrays;

/** Counting loops. */
public class Counting {
  /** How many elements are strictly greater than zero. */
  public int countPositive(int[] values) {
    int count = 0;
    for (int i = 0; i < values.length; i++) {
      if (values[i] > 0) {
        count++;
      }
    }
    return count;
  }
}
