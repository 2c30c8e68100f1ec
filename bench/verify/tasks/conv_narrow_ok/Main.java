// expect: SUCCESSFUL
// i2b, i2c and i2s keep the low bits and sign- or zero-extend them.
package conv_narrow_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    byte b = (byte) x;
    assert b >= -128 && b <= 127;
    assert (b & 0xFF) == (x & 0xFF);
    char c = (char) x;
    assert c >= 0 && c <= 65535;
    short s = (short) x;
    assert s == (short) (x & 0xFFFF);
    assert (byte) 200 == -56;
    assert (char) -1 == 65535;
  }
}
