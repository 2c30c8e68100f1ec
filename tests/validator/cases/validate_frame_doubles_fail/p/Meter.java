package p;

public class Meter {
  public double peak;
  public int overflows;

  public double record(double a, double b) {
    double v = Math.sqrt(a * a + b * b);
    if (a > 1e6) overflows++;
    if (v > peak) peak = v;
    return v;
  }
}
