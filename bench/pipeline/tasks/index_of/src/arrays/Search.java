package arrays;

/** Linear search. */
public class Search {
  /** Index of the first element equal to {@code key}, or -1. */
  public int indexOf(int[] values, int key) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == key) {
        return i;
      }
    }
    return -1;
  }
}
