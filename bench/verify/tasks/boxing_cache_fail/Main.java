// expect: FAILED
// Boxed values are shared only in the cache range -128..127.
package boxing_cache_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    Integer a = x;
    Integer b = x;
    assert a.equals(b);
    assert a == b;
  }
}
