// expect: FAILED
package math_abs_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    assert Math.abs(x) >= 0;
  }
}
