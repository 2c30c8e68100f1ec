package arrays;

/** Sorting of small int arrays. */
public class Sorter {
  /** Sorts {@code values} into ascending order, in place (insertion sort). */
  public void sort(int[] values) {
    for (int i = 1; i < values.length; i++) {
      int key = values[i];
      int j = i - 1;
      while (j >= 0 && values[j] > key) {
        values[j + 1] = values[j];
        j--;
      }
      values[j + 1] = key;
    }
  }
}
