// expect: SUCCESSFUL
package power_of_two_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x > 0);
    if ((x & (x - 1)) == 0) {
      int y = x;
      int shifts = 0;
      while (y > 1) {
        assert y % 2 == 0;
        y >>= 1;
        shifts++;
      }
      assert (1 << shifts) == x;
    }
  }
}
