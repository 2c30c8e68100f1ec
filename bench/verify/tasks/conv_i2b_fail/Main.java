// expect: FAILED
package conv_i2b_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x > 0 && x < 1000);
    byte b = (byte) x;
    assert b >= 0;
  }
}
