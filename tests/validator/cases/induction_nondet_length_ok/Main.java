// A loop whose length is a nondeterministic input: no unwinding bound
// covers it, the induction step proves it (the invariants sum <= i <= n and
// i <= sum, found by the tool, give sum == n after the loop).
import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n >= 0);
    int sum = 0;
    int i = 0;
    while (i < n) {
      sum++;
      i++;
      assert sum == i;
    }
    assert sum == n;
  }
}
