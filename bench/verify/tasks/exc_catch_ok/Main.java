// expect: SUCCESSFUL
package exc_catch_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    boolean caught = false;
    try {
      if (Verifier.nondetBoolean()) throw new IllegalStateException("state");
      throw new IllegalArgumentException("argument");
    } catch (RuntimeException e) {
      caught = true;
    }
    assert caught;
  }
}
