// expect: FAILED
// Kernighan's bit count reaches 32 for x = -1.
package bitwise_popcount_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    int count = 0;
    while (x != 0) {
      x &= x - 1;
      count++;
    }
    assert count <= 31;
  }
}
