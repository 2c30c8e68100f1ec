import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    int y = Verifier.nondetInt();
    Verifier.assume(x >= 0 && y >= 0);
    int sum = x + y;
    // sum wraps around for large x and y
    assert sum >= x;
  }
}
