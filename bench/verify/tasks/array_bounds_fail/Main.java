// expect: FAILED
// property: no-runtime-exception
package array_bounds_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int[] a = new int[5];
    int i = Verifier.nondetInt();
    Verifier.assume(i >= 0 && i <= 5);
    a[i] = 1;
  }
}
