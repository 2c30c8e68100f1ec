// expect: FAILED
// property: no-runtime-exception
package exc_propagate_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int checkedSqrt(int x) {
    if (x < 0) throw new IllegalArgumentException("negative");
    int r = 0;
    while ((r + 1) * (r + 1) <= x) r++;
    return r;
  }

  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x < 10);
    System.out.println(checkedSqrt(x));
  }
}
