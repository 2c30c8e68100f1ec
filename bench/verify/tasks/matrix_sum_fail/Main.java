// expect: FAILED
package matrix_sum_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int[][] m = new int[3][3];
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) m[i][j] = Verifier.nondetBoolean() ? 1 : 0;
    }
    int sum = 0;
    for (int[] row : m) {
      for (int v : row) sum += v;
    }
    assert sum < 9;
  }
}
