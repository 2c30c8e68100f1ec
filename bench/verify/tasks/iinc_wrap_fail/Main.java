// expect: FAILED
package iinc_wrap_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int i = Verifier.nondetInt();
    Verifier.assume(i > 100);
    i += 1000;
    assert i > 100;
  }
}
