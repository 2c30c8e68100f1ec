import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int parse(int code) {
    if (code < 0) throw new IllegalArgumentException("negative");
    return code * 2;
  }

  public static void main(String[] args) {
    int code = Verifier.nondetInt();
    int result = -1;
    try {
      result = parse(code);
    } catch (IllegalArgumentException e) {
      result = 0;
    } finally {
      // the finally block runs on both paths
      assert result != 0 || code < 0;
    }
  }
}
