package p;

public class Sign {
  public static double larger(double a, double b) {
    return a >= b ? a : b;
  }
}
