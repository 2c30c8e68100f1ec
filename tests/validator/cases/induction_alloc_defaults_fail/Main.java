// The same arrays as induction_alloc_defaults_ok, but the assertion claims a
// default element is not 0: the base case finds it (n = 0 is enough).
import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class Box {
    int v;
  }

  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    int[] acc = new int[1];
    boolean[] seen = new boolean[1];
    Box box = new Box();
    for (int i = 0; i < n; i++) {
      acc[0] += 2;
      seen[0] = true;
      box.v = i;
    }
    int[] r = new int[3];
    boolean[] fresh = new boolean[2];
    int[][] m = new int[2][2];
    Box other = new Box();
    assert r[1] == 0;
    assert r[2] != 0;
    assert !fresh[1];
    assert m[1][0] == 0;
    assert other.v == 0;
  }
}
