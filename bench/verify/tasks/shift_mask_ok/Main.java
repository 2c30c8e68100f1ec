// expect: SUCCESSFUL
// Shift distances are masked to 5 (int) or 6 (long) bits.
package shift_mask_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    int s = Verifier.nondetInt();
    assert (x << s) == (x << (s & 31));
    assert (x >>> 32) == x;
    assert (x >> 33) == (x >> 1);
    long l = Verifier.nondetLong();
    assert (l >> 64) == l;
    assert (l << s) == (l << (s & 63));
    assert (-1 >>> 28) == 15;
    assert (-16 >> 2) == -4;
  }
}
