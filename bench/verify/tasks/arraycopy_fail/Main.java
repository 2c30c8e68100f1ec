// expect: FAILED
package arraycopy_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int[] src = {1, 2, 3, 4};
    int[] dst = new int[3];
    int k = Verifier.nondetInt();
    Verifier.assume(k >= 0 && k <= 1);
    System.arraycopy(src, k, dst, 0, 3);
    assert dst[2] == src[k + 2];
    assert dst[0] == 1;
  }
}
