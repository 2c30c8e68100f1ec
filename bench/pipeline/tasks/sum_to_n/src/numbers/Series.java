package numbers;

/** Arithmetic series. */
public class Series {
  /** 1 + 2 + ... + n for n >= 0, by a loop. */
  public long sumTo(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("n must not be negative");
    }
    long total = 0;
    for (int i = 1; i <= n; i++) {
      total += i;
    }
    return total;
  }
}
