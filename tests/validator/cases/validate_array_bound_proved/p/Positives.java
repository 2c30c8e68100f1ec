package p;

public class Positives {
  //@ requires a != null;
  //@ ensures \result >= 0;
  public static int count(int[] a) {
    int c = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] > 0) {
        c++;
      }
    }
    return c;
  }
}
