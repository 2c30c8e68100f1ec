package p;

public class Counter {
  // Counts up to n: no unwinding bound covers every n.
  public static int countUp(int n) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      c++;
    }
    return c;
  }
}
