// expect: FAILED
// property: no-runtime-exception
// Linear search with an off-by-one loop condition over an array of
// nondeterministic length: the base case finds the out-of-bounds read.
package induction_search_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0);
    int[] a = new int[n];
    int key = Verifier.nondetInt();
    int found = -1;
    for (int i = 0; i <= n; i++) {
      if (a[i] == key) {
        found = i;
        break;
      }
    }
    assert found < n;
  }
}
