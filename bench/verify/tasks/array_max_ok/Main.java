// expect: SUCCESSFUL
package array_max_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int max(int[] a) {
    int m = a[0];
    for (int i = 1; i < a.length; i++) {
      if (a[i] > m) m = a[i];
    }
    return m;
  }

  public static void main(String[] args) {
    int[] a = new int[4];
    for (int i = 0; i < a.length; i++) a[i] = Verifier.nondetInt();
    int m = max(a);
    boolean found = false;
    for (int i = 0; i < a.length; i++) {
      assert a[i] <= m;
      if (a[i] == m) found = true;
    }
    assert found;
  }
}
