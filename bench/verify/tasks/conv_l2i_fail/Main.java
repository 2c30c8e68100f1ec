// expect: FAILED
package conv_l2i_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    long l = Verifier.nondetLong();
    Verifier.assume(l > 0);
    int i = (int) l;
    assert i > 0;
  }
}
