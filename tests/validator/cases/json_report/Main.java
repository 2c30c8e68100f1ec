import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int divisor = Verifier.nondetInt();
    int q = 100 / divisor;
    assert q >= -100;
  }
}
