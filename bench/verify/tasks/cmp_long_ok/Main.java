// expect: SUCCESSFUL
package cmp_long_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    long a = Verifier.nondetLong();
    long b = Verifier.nondetLong();
    int c = Long.compare(a, b);
    assert (c < 0) == (a < b);
    assert (c == 0) == (a == b);
    int x = Verifier.nondetInt();
    int y = Verifier.nondetInt();
    assert (Integer.compare(x, y) > 0) == (x > y);
  }
}
