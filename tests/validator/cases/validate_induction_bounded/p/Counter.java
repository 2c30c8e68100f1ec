package p;

public class Counter {
  static int next(int c) {
    return c + 1;
  }

  // Counts up to n through a call: the loop does not qualify for the
  // induction step (it calls a method of the program).
  public static int countUpByCalls(int n) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      c = next(c);
    }
    return c;
  }
}
