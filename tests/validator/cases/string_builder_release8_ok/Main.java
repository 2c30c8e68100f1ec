import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    char c = Verifier.nondetChar();
    // Compiled with --release 8: concatenation is StringBuilder calls.
    String s = "n=" + n + c;
    StringBuilder sb = new StringBuilder("[");
    sb.append(c).append(true).append(']');
    assert sb.length() == 7 && sb.charAt(0) == '[' && sb.charAt(1) == c;
    assert sb.toString().equals("[" + c + "true]");
    assert s.charAt(s.length() - 1) == c;
    if (n >= 0 && n < 10) {
      assert s.length() == 4;
    }
    // A double's text is not modelled: the string exists, its characters
    // are never looked at.
    String d = "d=" + (n * 0.5);
    assert d != null;
  }
}
