// expect: FAILED
// property: no-runtime-exception
package array_jagged_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int[][] jagged = new int[3][];
    jagged[0] = new int[2];
    jagged[2] = new int[1];
    int row = Verifier.nondetInt();
    Verifier.assume(row >= 0 && row < 3);
    System.out.println(jagged[row][0]);
  }
}
