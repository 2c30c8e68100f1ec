// expect: SUCCESSFUL
package fp_math_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    float z = Verifier.nondetFloat();
    Verifier.assume(z == 0.0f);
    assert 1.0f / Math.abs(-z) > 0;
    double d = Verifier.nondetDouble();
    Verifier.assume(d >= -4.0 && d <= 4.0);
    assert Math.floor(d) <= d && Math.ceil(d) >= d;
    assert Math.signum(d) * d >= 0;
    assert Math.max(d, Double.NaN) != Math.max(d, Double.NaN);
  }
}
