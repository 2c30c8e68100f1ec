// expect: FAILED
// property: no-runtime-exception
package math_addexact_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    int y = Verifier.nondetInt();
    Verifier.assume(x > 0);
    System.out.println(Math.addExact(x, y));
  }
}
