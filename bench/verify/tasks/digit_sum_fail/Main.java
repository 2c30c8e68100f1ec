// expect: FAILED
package digit_sum_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n <= 999);
    int sum = 0;
    while (n > 0) {
      sum += n % 10;
      n /= 10;
    }
    assert sum < 27;
  }
}
