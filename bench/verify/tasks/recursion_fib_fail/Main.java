// expect: FAILED
package recursion_fib_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
  }

  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n <= 7);
    assert fib(n) != 13;
  }
}
