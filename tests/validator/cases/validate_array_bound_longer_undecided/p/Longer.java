package p;

public class Longer {
  //@ requires a != null;
  //@ ensures \result == a.length;
  public static int count(int[] a) {
    int n = 0;
    for (int i = 0; i < a.length; i++) {
      if (i == 5) {
        Thread.yield();
      }
      n++;
    }
    return n;
  }
}
