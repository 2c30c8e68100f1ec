// expect: SUCCESSFUL
// A countdown from a nondeterministic start: x >= 0 and x <= its start
// hold at the loop head, so x == 0 after the loop.
package induction_countdown_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x >= 0);
    int start = x;
    while (x > 0) {
      x--;
      assert x < start;
    }
    assert x == 0;
  }
}
