// expect: FAILED
package static_counter_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int count;

  static void inc() {
    count++;
  }

  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n <= 3);
    for (int i = 0; i < n; i++) inc();
    assert count < 3;
  }
}
