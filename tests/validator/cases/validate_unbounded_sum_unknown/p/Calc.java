package p;

public class Calc {
  public static int triangle(int n) {
    return n * (n - 1) / 2;
  }
}
