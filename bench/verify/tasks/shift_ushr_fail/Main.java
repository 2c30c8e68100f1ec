// expect: FAILED
package shift_ushr_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    assert (x >>> 1) == (x >> 1);
  }
}
