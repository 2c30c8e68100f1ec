// expect: FAILED
package object_alias_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class Cell {
    int x;
  }

  public static void main(String[] args) {
    Cell a = new Cell();
    Cell b = Verifier.nondetBoolean() ? a : new Cell();
    a.x = 1;
    b.x = 2;
    assert a.x == 1;
  }
}
