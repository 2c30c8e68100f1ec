// expect: SUCCESSFUL
package insertion_sort_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n <= 3);
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = Verifier.nondetInt();
    for (int i = 1; i < n; i++) {
      int key = a[i];
      int j = i - 1;
      while (j >= 0 && a[j] > key) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = key;
    }
    for (int i = 0; i + 1 < n; i++) assert a[i] <= a[i + 1];
  }
}
