// expect: FAILED
// property: no-runtime-exception
// hi starts one past the end.
package binary_search_bug_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int search(int[] a, int key) {
    int lo = 0;
    int hi = a.length;
    while (lo <= hi) {
      int mid = (lo + hi) / 2;
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
    int[] a = {1, 4, 9, 16, 25};
    System.out.println(search(a, Verifier.nondetInt()));
  }
}
