// expect: SUCCESSFUL
package super_call_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class A {
    int base;

    A(int base) {
      this.base = base;
    }

    int m() {
      return base;
    }
  }

  static class B extends A {
    B(int base) {
      super(base * 2);
    }

    @Override
    int m() {
      return super.m() + 1;
    }
  }

  public static void main(String[] args) {
    int x = Verifier.nondetInt();
    A a = new B(x);
    assert a.m() == 2 * x + 1;
    assert a instanceof B;
  }
}
