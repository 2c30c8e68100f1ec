// expect: SUCCESSFUL
package switch_fallthrough_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Verifier.assume(x >= 1 && x <= 3);
    int sum = 0;
    switch (x) {
      case 1: sum += 1;
      case 2: sum += 2;
      case 3: sum += 3;
    }
    assert sum == (x == 1 ? 6 : x == 2 ? 5 : 3);
  }
}
