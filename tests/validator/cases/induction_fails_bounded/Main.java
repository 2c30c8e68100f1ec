// The induction step fails here: from an arbitrary state at the loop head
// (x = 5, say) the assertion breaks, but no real execution reaches it (x is
// even at the head, which no candidate invariant says). That violation of
// the step is not a counterexample: the verdict stays bounded.
import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    int x = 0;
    for (int i = 0; i < n; i++) {
      x += 2;
      assert x != 7;
    }
  }
}
