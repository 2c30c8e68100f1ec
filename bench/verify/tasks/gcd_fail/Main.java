// expect: FAILED
package gcd_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int gcd(int a, int b) {
    while (b != 0) {
      int t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  public static void main(String[] args) {
    int a = Verifier.nondetInt();
    int b = Verifier.nondetInt();
    Verifier.assume(a > 1 && a < 16 && b > 1 && b < 16 && a != b);
    assert gcd(a, b) == 1;
  }
}
