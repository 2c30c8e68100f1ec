// expect: FAILED
// property: no-runtime-exception
package arith_div_zero_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int d = Verifier.nondetInt();
    Verifier.assume(d < 10);
    int r = 100 / d;
    System.out.println(r);
  }
}
