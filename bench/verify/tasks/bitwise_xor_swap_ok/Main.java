// expect: SUCCESSFUL
package bitwise_xor_swap_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int a = Verifier.nondetInt();
    int b = Verifier.nondetInt();
    int oldA = a;
    int oldB = b;
    a ^= b;
    b ^= a;
    a ^= b;
    assert a == oldB && b == oldA;
    assert (a | b) == (a ^ b) + (a & b);
    assert ((a & b) | (a & ~b)) == a;
  }
}
