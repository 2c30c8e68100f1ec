// expect: FAILED
// x + 1 wraps around for x = Integer.MAX_VALUE.
package arith_int_overflow_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x > 0);
    int y = x + 1;
    assert y > 0;
  }
}
