import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static final String GREETING = "hello, world";

  public static void main(String[] args) {
    int i = Verifier.nondetInt();
    // Literals are interned objects with known characters (the constant
    // pool's text, longer than the array bound L).
    assert GREETING.length() == 12;
    assert GREETING == "hello, world";
    assert "caf\u00e9".hashCode() == 3045921;
    assert GREETING.substring(7).equals("world");
    assert GREETING.compareTo("hello") > 0;
    if (i >= 0 && i < 5) {
      assert GREETING.charAt(i) != 'l';  // fails: i = 2
    }
  }
}
