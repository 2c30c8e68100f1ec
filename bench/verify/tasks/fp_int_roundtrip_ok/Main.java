// expect: SUCCESSFUL
// Every int up to 2^24 in magnitude is a float.
package fp_int_roundtrip_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int i = Verifier.nondetInt();
    Verifier.assume(i > -16777216 && i < 16777216);
    float f = i;
    assert (int) f == i;
    double d = i;
    assert (int) d == i;
  }
}
