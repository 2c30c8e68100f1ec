// expect: FAILED
// property: no-runtime-exception
package checkcast_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class A {}

  static class B {}

  public static void main(String[] args) {
    Object o = Verifier.nondetBoolean() ? new A() : new B();
    A a = (A) o;
    System.out.println(a);
  }
}
