// expect: SUCCESSFUL
package prime_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static boolean isPrime(int n) {
    if (n < 2) return false;
    for (int d = 2; d * d <= n; d++) {
      if (n % d == 0) return false;
    }
    return true;
  }

  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 2 && n <= 30);
    if (isPrime(n)) assert n % 2 != 0 || n == 2;
    if (n % 6 == 0) assert !isPrime(n);
  }
}
