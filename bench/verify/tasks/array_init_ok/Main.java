// expect: SUCCESSFUL
package array_init_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n <= 4);
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = i * i;
    for (int i = 0; i < a.length; i++) assert a[i] == i * i && a[i] >= 0;
    boolean[] flags = new boolean[3];
    assert !flags[0] && !flags[2];
    double[] d = new double[2];
    assert d[1] == 0.0;
  }
}
