// expect: FAILED
package arith_long_mul_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    long a = Verifier.nondetLong();
    long b = Verifier.nondetLong();
    Verifier.assume(a > 0 && b > 0);
    assert a * b > 0;
  }
}
