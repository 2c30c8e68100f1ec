import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    assert x != 12345;
    // Only reached when the assertion holds; has no model.
    System.out.println(String.valueOf(x).trim());
  }
}
