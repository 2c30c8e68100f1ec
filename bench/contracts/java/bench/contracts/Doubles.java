package bench.contracts;

/** Small tasks over double values. */
public final class Doubles {
  private Doubles() {}

  public static double toFahrenheit(double celsius) {
    return celsius * 9.0 / 5.0 + 32.0;
  }

  public static double toCelsius(double fahrenheit) {
    return (fahrenheit - 32.0) * 5.0 / 9.0;
  }

  public static double clamp(double x, double lo, double hi) {
    if (!(lo <= hi)) {
      throw new IllegalArgumentException("empty range");
    }
    if (x < lo) {
      return lo;
    }
    if (x > hi) {
      return hi;
    }
    return x;
  }

  public static boolean inRange(double x, double lo, double hi) {
    return lo <= x && x <= hi;
  }

  public static double maxAbs(double a, double b) {
    double x = a < 0 ? -a : a;
    double y = b < 0 ? -b : b;
    return x >= y ? x : y;
  }

  // The real roots of a x^2 + b x + c, larger first.
  public static double[] roots(double a, double b, double c) {
    if (a == 0) throw new IllegalArgumentException("not quadratic");
    double d = b * b - 4 * a * c;
    if (d < 0) return new double[0];
    if (d == 0) return new double[] {-b / (2 * a)};
    double s = Math.sqrt(d);
    return new double[] {(-b + s) / (2 * a), (-b - s) / (2 * a)};
  }
}
