// expect: SUCCESSFUL
// String building is opaque but harmless.
package string_concat_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    String s = "x = " + x;
    StringBuilder sb = new StringBuilder();
    sb.append("y").append(x * 2);
    System.out.println(s);
    System.out.println(sb.toString());
    assert s != null;
  }
}
