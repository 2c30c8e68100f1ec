import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    String s = Verifier.nondetBoolean() ? "yes" : "no";
    assert !s.trim().isEmpty();
  }
}
