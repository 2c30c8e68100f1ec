// expect: SUCCESSFUL
// NaN is unordered: every comparison but != is false.
package fp_nan_cmp_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    float zero = Verifier.nondetFloat();
    Verifier.assume(zero == 0.0f);
    float f = zero / zero;
    assert !(f < 1) && !(f >= 1) && f != f;
    assert Float.isNaN(f);
    double d = (double) f;
    assert d != d;
    assert Float.compare(f, Float.POSITIVE_INFINITY) > 0;
  }
}
