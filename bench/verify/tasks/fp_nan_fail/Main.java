// expect: FAILED
package fp_nan_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    double d = Verifier.nondetDouble();
    assert d == d;
  }
}
