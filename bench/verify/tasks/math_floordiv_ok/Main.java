// expect: SUCCESSFUL
package math_floordiv_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    int y = Verifier.nondetInt();
    Verifier.assume(x > -1000 && x < 1000 && y != 0 && y > -50 && y < 50);
    int q = Math.floorDiv(x, y);
    int m = Math.floorMod(x, y);
    assert m == 0 || (m > 0) == (y > 0);
    assert Math.abs(m) < Math.abs(y);
    if (x >= 0 && y > 0) assert q == x / y && m == x % y;
    if (x < 0 && y > 0 && x % y != 0) assert q == x / y - 1;
    assert Math.floorMod(-7, 3) == 2 && Math.floorDiv(-7, 3) == -3;
  }
}
