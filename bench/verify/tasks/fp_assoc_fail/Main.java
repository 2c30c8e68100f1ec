// expect: FAILED
// Floating-point addition is not associative.
package fp_assoc_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    float a = Verifier.nondetFloat();
    float b = Verifier.nondetFloat();
    float c = Verifier.nondetFloat();
    Verifier.assume(a > -1000 && a < 1000 && b > -1000 && b < 1000 && c > -1000 && c < 1000);
    assert (a + b) + c == a + (b + c);
  }
}
