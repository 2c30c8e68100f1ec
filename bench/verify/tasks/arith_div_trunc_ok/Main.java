// expect: SUCCESSFUL
// Integer division truncates towards zero; the remainder takes the sign of
// the dividend.
package arith_div_trunc_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x > -100 && x < 100);
    assert (x / 3) * 3 + x % 3 == x;
    int a = -7;
    assert a / 2 == -3;
    assert a % 2 == -1;
    assert 7 % -2 == 1;
    long l = Verifier.nondetLong();
    Verifier.assume(l != 0);
    assert (l / l) == 1;
  }
}
