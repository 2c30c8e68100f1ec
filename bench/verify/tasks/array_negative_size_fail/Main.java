// expect: FAILED
// property: no-runtime-exception
package array_negative_size_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int n = Verifier.nondetInt();
    Verifier.assume(n < 4);
    long[] a = new long[n];
    System.out.println(a.length);
  }
}
