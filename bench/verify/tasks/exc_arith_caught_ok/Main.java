// expect: SUCCESSFUL
// property: no-runtime-exception
package exc_arith_caught_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int a = Verifier.nondetInt();
    int b = Verifier.nondetInt();
    int r;
    try {
      r = a / b;
    } catch (ArithmeticException e) {
      r = 0;
    }
    int[] table = new int[4];
    try {
      table[a] = r;
    } catch (IndexOutOfBoundsException e) {
      table[0] = r;
    }
  }
}
