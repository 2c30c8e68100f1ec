// expect: FAILED
package enum_state_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  enum Light {
    RED,
    GREEN,
    YELLOW;

    Light next() {
      switch (this) {
        case RED: return GREEN;
        case GREEN: return YELLOW;
        default: return RED;
      }
    }
  }

  public static void main(String[] args) {
    Light l = Light.RED;
    int steps = Verifier.nondetInt();
    Verifier.assume(steps >= 0 && steps < 5);
    for (int i = 0; i < steps; i++) l = l.next();
    assert l.ordinal() < 2;
  }
}
