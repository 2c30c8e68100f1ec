package numbers;

/** Repeated multiplication. */
public class Exponent {
  /** base raised to exp (exp >= 0), in long arithmetic (wraps on overflow). */
  public long power(int base, int exp) {
    if (exp < 0) {
      throw new IllegalArgumentException("negative exponent");
    }
    long result = 1;
    for (int i = 0; i < exp; i++) {
      result *= base;
    }
    return result;
  }
}
