// expect: SUCCESSFUL
package binary_search_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int search(int[] a, int key) {
    int lo = 0;
    int hi = a.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] < key) {
        lo = mid + 1;
      } else if (a[mid] > key) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  public static void main(String[] args) {
    int[] a = {2, 3, 5, 8, 13, 21, 34};
    int key = Verifier.nondetInt();
    int idx = search(a, key);
    if (idx >= 0) {
      assert a[idx] == key;
    } else {
      for (int v : a) assert v != key;
    }
  }
}
