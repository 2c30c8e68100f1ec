// expect: SUCCESSFUL
// property: no-runtime-exception
// MIN_VALUE / -1 overflows to MIN_VALUE without an exception.
package arith_div_minvalue_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int y = Verifier.nondetInt();
    Verifier.assume(y == -1);
    int x = Integer.MIN_VALUE;
    if (x / y != Integer.MIN_VALUE) throw new IllegalStateException();
    if (x % y != 0) throw new IllegalStateException();
    long lx = Long.MIN_VALUE;
    if (lx / y != Long.MIN_VALUE) throw new IllegalStateException();
  }
}
