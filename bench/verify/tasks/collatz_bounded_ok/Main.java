// expect: SUCCESSFUL
// For 1 <= n <= 10 the Collatz sequence reaches 1 within 19 steps (n = 9).
package collatz_bounded_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 1 && n <= 10);
    int steps = 0;
    while (n != 1) {
      n = n % 2 == 0 ? n / 2 : 3 * n + 1;
      steps++;
    }
    assert steps < 20;
  }
}
