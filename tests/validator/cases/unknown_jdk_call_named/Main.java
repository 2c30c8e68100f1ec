import java.util.Arrays;
import java.util.List;
import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    Integer[] a = {Verifier.nondetInt()};
    List<Integer> l = Arrays.asList(a);
    assert l.size() == 1;
  }
}
