// expect: SUCCESSFUL
package enum_state_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  enum Mode {
    OFF,
    ON
  }

  public static void main(String[] args) {
    Mode m = Mode.OFF;
    int toggles = Verifier.nondetInt();
    Verifier.assume(toggles >= 0 && toggles < 4);
    for (int i = 0; i < toggles; i++) m = m == Mode.OFF ? Mode.ON : Mode.OFF;
    assert (m == Mode.ON) == (toggles % 2 == 1);
    assert m.ordinal() == toggles % 2;
  }
}
