// expect: FAILED
// property: no-runtime-exception
// Arrays are covariant; storing the wrong type raises ArrayStoreException.
package array_store_fail;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  static class Animal {}

  static class Cat extends Animal {}

  static class Dog extends Animal {}

  public static void main(String[] args) {
    Animal[] pets = Verifier.nondetBoolean() ? new Cat[2] : new Animal[2];
    pets[0] = new Cat();
    pets[1] = new Dog();
  }
}
