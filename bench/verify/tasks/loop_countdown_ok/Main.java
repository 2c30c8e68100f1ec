// expect: SUCCESSFUL
package loop_countdown_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n <= 30);
    int i = n;
    int steps = 0;
    while (i > 0) {
      i -= Verifier.nondetBoolean() ? 1 : 2;
      steps++;
    }
    assert i == 0 || i == -1;
    assert steps <= n;
  }
}
