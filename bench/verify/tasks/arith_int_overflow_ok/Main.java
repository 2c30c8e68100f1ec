// expect: SUCCESSFUL
package arith_int_overflow_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x > 0 && x < 1000000);
    assert x * 2 > x;
    assert x * 2 - x == x;
  }
}
