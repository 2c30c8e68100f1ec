// expect: FAILED
package interface_default_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  interface Valued {
    default int value() {
      return 1;
    }
  }

  static class Plain implements Valued {}

  static class Special implements Valued {
    public int value() {
      return 2;
    }
  }

  public static void main(String[] args) {
    Valued v = Verifier.nondetBoolean() ? new Plain() : new Special();
    assert v.value() == 1;
  }
}
