import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    // Concatenation (invokedynamic makeConcatWithConstants) has contents.
    String s = "<" + (n > 0 ? "pos" : null) + ":" + n + '>';
    assert s.charAt(0) == '<';
    assert s.charAt(s.length() - 1) == '>';
    assert s.length() >= 8 || n > 0;
    if (n == -7) {
      assert s.equals("<null:-7>");
    }
  }
}
