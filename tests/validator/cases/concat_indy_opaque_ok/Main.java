import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    String label = "x=" + x + ", twice=" + (2 * x);
    System.out.println(label);
    assert label != null;
  }
}
