package p;

public class Calc {
  public static int abs(int x) {
    return x < 0 ? -x : x;
  }
}
