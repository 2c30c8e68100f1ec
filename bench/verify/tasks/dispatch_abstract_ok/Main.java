// expect: SUCCESSFUL
package dispatch_abstract_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  abstract static class Animal {
    abstract int legs();

    int twice() {
      return 2 * legs();
    }
  }

  static class Dog extends Animal {
    int legs() {
      return 4;
    }
  }

  static class Bird extends Animal {
    int legs() {
      return 2;
    }
  }

  public static void main(String[] args) {
    Animal a = Verifier.nondetBoolean() ? new Dog() : new Bird();
    int l = a.legs();
    assert l == 2 || l == 4;
    assert a.twice() == 2 * l;
  }
}
