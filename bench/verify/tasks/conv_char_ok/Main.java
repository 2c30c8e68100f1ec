// expect: SUCCESSFUL
package conv_char_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    char c = Verifier.nondetChar();
    int i = c;
    assert i >= 0 && i < 65536;
    short s = Verifier.nondetShort();
    assert s >= -32768 && s <= 32767;
    byte b = Verifier.nondetByte();
    int widened = b;
    assert widened >= -128 && widened <= 127;
    boolean z = Verifier.nondetBoolean();
    assert z || !z;
  }
}
