// expect: SUCCESSFUL
package object_fields_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class Point {
    int x;
    int y;

    Point(int x, int y) {
      this.x = x;
      this.y = y;
    }

    void move(int dx, int dy) {
      x += dx;
      y += dy;
    }
  }

  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    int y = Verifier.nondetInt();
    Point p = new Point(x, y);
    Point q = new Point(y, x);
    p.move(1, -1);
    assert p.x - 1 == x && p.y + 1 == y;
    assert q.x == y && q.y == x;
  }
}
