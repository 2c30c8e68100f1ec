// expect: FAILED
package fp_sqrt_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    double x = Verifier.nondetDouble();
    Verifier.assume(x >= 1.0 && x <= 100.0);
    double r = Math.sqrt(x);
    assert r * r == x;
  }
}
