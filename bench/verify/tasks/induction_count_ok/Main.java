// expect: SUCCESSFUL
// Counting up to a nondeterministic bound: the invariant count == i (two
// order relations between the loop's locals) closes the loop.
package induction_count_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0);
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (Verifier.nondetBoolean()) count++;
      else count += 1;
    }
    assert count == n;
  }
}
