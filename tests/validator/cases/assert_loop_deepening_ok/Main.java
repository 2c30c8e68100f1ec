import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0 && n <= 12);
    int squares = 0;
    for (int i = 0; i < n; i++) squares += 2 * i + 1;
    assert squares == n * n;
  }
}
