// expect: FAILED
package do_while_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x <= 5 && x > -3);
    do {
      x--;
    } while (x > 0);
    assert x == 0;
  }
}
