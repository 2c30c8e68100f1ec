// expect: SUCCESSFUL
package loop_break_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n <= 10);
    int i = 0;
    while (true) {
      i++;
      if (i >= n) break;
    }
    assert i == (n < 1 ? 1 : n);
  }
}
