// expect: SUCCESSFUL
// Linear search in an array of nondeterministic length and contents: no
// unwinding bound covers every length, so only an induction proof decides.
package induction_search_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0);
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = Verifier.nondetInt();
    int key = Verifier.nondetInt();
    int found = -1;
    for (int i = 0; i < n; i++) {
      if (a[i] == key) {
        found = i;
        break;
      }
    }
    assert found >= -1 && found < n;
  }
}
