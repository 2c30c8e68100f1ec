import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  // Runs before main: its library call has no model, so nothing after it is
  // explored and the verdict cannot be SUCCESSFUL.
  static final String LABEL = String.valueOf(3).trim();

  public static void main(String[] args) {
    assert Verifier.nondetInt() != 5;
  }
}
