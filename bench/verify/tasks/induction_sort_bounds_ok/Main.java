// expect: SUCCESSFUL
// property: no-runtime-exception
// Bubble sort of an array of nondeterministic length and contents: every
// index stays in bounds, for every length (the loops write array elements,
// whose contents the induction step leaves arbitrary).
package induction_sort_bounds_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n < 1000000);
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
  }
}
