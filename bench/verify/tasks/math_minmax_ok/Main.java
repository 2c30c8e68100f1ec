// expect: SUCCESSFUL
package math_minmax_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int a = Verifier.nondetInt();
    int b = Verifier.nondetInt();
    int lo = Math.min(a, b);
    int hi = Math.max(a, b);
    assert lo <= hi && (lo == a || lo == b) && (hi == a || hi == b);
    long la = Verifier.nondetLong();
    assert Math.max(la, Long.MIN_VALUE) == la;
    assert Math.multiplyExact(3, 4) == 12;
  }
}
