package arr;

/** Searching sorted arrays. */
public class Search {
  /** The index of key in the sorted array a, or -(insertion point) - 1. */
  public static int binarySearch(int[] a, int key) {
    int from = 0;
    int to = a.length;
    while (to - from > 0) {
      int probe = from + (to - from) / 2;
      if (a[probe] == key) {
        return probe;
      }
      if (a[probe] < key) {
        from = probe + 1;
      } else {
        to = probe;
      }
    }
    return -from - 1;
  }
}
