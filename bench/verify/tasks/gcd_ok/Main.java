// expect: SUCCESSFUL
package gcd_ok;

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
    Verifier.assume(a > 0 && a < 16 && b > 0 && b < 16);
    int g = gcd(a, b);
    assert g > 0 && a % g == 0 && b % g == 0;
  }
}
