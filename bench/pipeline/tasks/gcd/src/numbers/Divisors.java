package numbers;

/** Divisibility helpers. */
public class Divisors {
  /** Greatest common divisor of two non-negative numbers (Euclid). */
  public int gcd(int a, int b) {
    if (a < 0 || b < 0) {
      throw new IllegalArgumentException("negative argument");
    }
    while (b != 0) {
      int r = a % b;
      a = b;
      b = r;
    }
    return a;
  }
}
