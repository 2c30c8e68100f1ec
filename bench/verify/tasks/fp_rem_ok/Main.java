// expect: SUCCESSFUL
// % on floating point truncates the quotient and keeps the dividend's sign.
package fp_rem_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    double a = 5.5;
    double two = 2.0;
    assert a % two == 1.5;
    assert -a % two == -1.5;
    assert 5.0 % -3.0 == 2.0;
    assert Double.isNaN(a % 0.0);
    float x = Verifier.nondetFloat();
    Verifier.assume(x >= 0.0f && x < 100.0f);
    float r = x % 2.0f;
    assert r >= 0.0f && r < 2.0f;
  }
}
