// expect: SUCCESSFUL
package switch_table_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x >= 0 && x < 5);
    int r;
    switch (x) {
      case 0: r = 10; break;
      case 1: r = 11; break;
      case 2: r = 12; break;
      case 3: r = 13; break;
      case 4: r = 14; break;
      default: r = -1;
    }
    assert r == 10 + x;
  }
}
