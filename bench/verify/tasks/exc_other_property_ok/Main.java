// expect: SUCCESSFUL
// An IllegalStateException escaping main is not an assertion failure.
package exc_other_property_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    if (x == 42) throw new IllegalStateException();
    assert x != 42;
  }
}
