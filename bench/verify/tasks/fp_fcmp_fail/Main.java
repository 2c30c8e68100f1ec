// expect: FAILED
package fp_fcmp_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    float x = Verifier.nondetFloat();
    if (!(x > 0)) {
      assert x <= 0;
    }
  }
}
