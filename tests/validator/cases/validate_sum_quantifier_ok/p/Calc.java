package p;

public class Calc {
  public static long total(int[] a) {
    long s = 0;
    for (int v : a) {
      s += v;
    }
    return s;
  }
}
