package numbers;

/** Multiples of small positive numbers. */
public class Multiples {
  /** Least common multiple of two positive numbers, as a long so it cannot overflow. */
  public long lcm(int a, int b) {
    if (a <= 0 || b <= 0) {
      throw new IllegalArgumentException("arguments must be positive");
    }
    int x = a;
    int y = b;
    while (y != 0) {
      int r = x % y;
      x = y;
      y = r;
    }
    return (long) a / x * b;
  }
}
