// expect: FAILED
package fp_f2l_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    float f = Verifier.nondetFloat();
    Verifier.assume(f == f);
    long l = (long) f;
    assert l != Long.MIN_VALUE;
  }
}
