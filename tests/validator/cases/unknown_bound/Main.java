import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    long x = Verifier.nondetLong();
    int steps = 0;
    while (x > 0) {
      x = x / 2;
      steps++;
    }
    assert steps <= 64;
  }
}
