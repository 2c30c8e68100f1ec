// expect: FAILED
package exc_custom_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class CodedException extends Exception {
    final int code;

    CodedException(int code) {
      super("code " + code);
      this.code = code;
    }
  }

  static void run(int input) throws CodedException {
    if (input % 5 == 2) throw new CodedException(input);
  }

  public static void main(String[] args) {
    int input = Verifier.nondetInt();
    Verifier.assume(input >= 0 && input < 20);
    try {
      run(input);
    } catch (CodedException e) {
      assert e.code != 7;
    }
  }
}
