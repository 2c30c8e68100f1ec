// expect: SUCCESSFUL
// property: no-runtime-exception
package instanceof_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class A {
    int f() {
      return 1;
    }
  }

  static class B extends A {}

  static class C {}

  public static void main(String[] args) {
    int pick = Verifier.nondetInt();
    Object o = pick == 0 ? new A() : pick == 1 ? new B() : pick == 2 ? new C() : null;
    if (o instanceof A) {
      A a = (A) o;
      if (a.f() != 1) throw new IllegalStateException();
    }
    Object[] boxes = new Object[2];
    boxes[0] = o;
    A maybe = (A) (o instanceof C ? null : o);
    if (maybe != null && !(maybe instanceof A)) throw new IllegalStateException();
  }
}
