// expect: FAILED
package fp_round_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    double d = Verifier.nondetDouble();
    Verifier.assume(d >= 0 && d < 10);
    long r = Math.round(d);
    assert r <= 9;
  }
}
