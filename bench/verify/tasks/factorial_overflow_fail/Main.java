// expect: FAILED
// 17! does not fit in an int and wraps to a negative number.
package factorial_overflow_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 1 && n <= 20);
    int f = 1;
    for (int i = 2; i <= n; i++) f *= i;
    assert f > 0;
  }
}
