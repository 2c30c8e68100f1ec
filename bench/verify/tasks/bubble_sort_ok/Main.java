// expect: SUCCESSFUL
package bubble_sort_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = 4;
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = Verifier.nondetInt();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j + 1 < n - i; j++) {
        if (a[j] > a[j + 1]) {
          int t = a[j];
          a[j] = a[j + 1];
          a[j + 1] = t;
        }
      }
    }
    for (int i = 0; i + 1 < n; i++) assert a[i] <= a[i + 1];
  }
}
