// expect: FAILED
// x % 2 is -1 for negative odd x.
package arith_rem_sign_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    int r = x % 2;
    assert r == 0 || r == 1;
  }
}
