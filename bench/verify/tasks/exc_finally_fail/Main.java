// expect: FAILED
package exc_finally_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = 0;
    try {
      if (Verifier.nondetBoolean()) throw new RuntimeException();
      x = 1;
    } catch (RuntimeException e) {
      x = 2;
    } finally {
      x += 10;
    }
    assert x == 11;
  }
}
