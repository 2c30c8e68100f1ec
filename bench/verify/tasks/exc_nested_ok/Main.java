// expect: SUCCESSFUL
package exc_nested_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int divide(int a, int b) {
    try {
      return a / b;
    } catch (ArithmeticException e) {
      throw new IllegalStateException("division failed", e);
    }
  }

  public static void main(String[] args) {
    int a = Verifier.nondetInt();
    int b = Verifier.nondetInt();
    try {
      int q = divide(a, b);
      assert b != 0;
    } catch (IllegalStateException e) {
      assert b == 0;
      assert e.getCause() instanceof ArithmeticException;
    }
  }
}
