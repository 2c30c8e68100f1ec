// expect: FAILED
package fp_int_roundtrip_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int i = Verifier.nondetInt();
    float f = i;
    assert (int) f == i;
  }
}
