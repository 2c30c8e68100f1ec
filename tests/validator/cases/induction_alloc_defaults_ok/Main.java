// Arrays and an object allocated after a loop the induction step closes
// (the loop writes int and boolean elements and a field, so those are
// havocked at its head) still hold their default values: the allocation's
// defaults hold in the havocked heap too, not only in the starting one.
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
    assert !fresh[1];
    assert m[1][0] == 0;
    assert other.v == 0;
  }
}
