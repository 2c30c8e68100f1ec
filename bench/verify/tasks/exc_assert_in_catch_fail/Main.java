// expect: FAILED
package exc_assert_in_catch_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    Object o = Verifier.nondetBoolean() ? new Object() : null;
    try {
      o.hashCode();
    } catch (NullPointerException e) {
      assert false : "null reached";
    }
  }
}
