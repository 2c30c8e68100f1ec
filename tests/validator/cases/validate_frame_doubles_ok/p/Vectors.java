package p;

public class Vectors {
  public static double[] unit(double x, double y) {
    double n = Math.sqrt(x * x + y * y);
    if (n == 0) throw new ArithmeticException("zero vector");
    return new double[] {x / n, y / n};
  }
}
