// expect: SUCCESSFUL
package boxing_value_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Integer a = x;
    assert a.intValue() == x;
    Long l = (long) x;
    assert l == x;
    Integer small = 100;
    Integer same = 100;
    assert small == same;
    Boolean t = Verifier.nondetBoolean();
    assert t == Boolean.TRUE || t == Boolean.FALSE;
    Double d = 1.5;
    assert d.doubleValue() == 1.5;
  }
}
