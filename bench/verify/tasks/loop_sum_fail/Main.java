// expect: FAILED
package loop_sum_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n <= 20);
    int sum = 0;
    for (int i = 1; i <= n; i++) sum += i;
    assert sum != 210;
  }
}
