// expect: FAILED
package switch_lookup_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    int r;
    switch (x) {
      case 1: r = 1; break;
      case 1000: r = 2; break;
      case -5: r = 3; break;
      case 77777: r = 4; break;
      default: r = 0;
    }
    assert r != 3;
  }
}
