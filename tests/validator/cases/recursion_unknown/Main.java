import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static int depth(int n) {
    return n <= 0 ? 0 : 1 + depth(n - 1);
  }

  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    assert depth(n) >= 0;
  }
}
