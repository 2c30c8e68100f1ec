package numbers;

/** Decimal digits. */
public class Digits {
  /** Number of decimal digits of n >= 0 (0 has one digit). */
  public int count(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("negative");
    }
    int digits = 1;
    for (long bound = 10; bound <= n; bound *= 10) {
      digits++;
    }
    return digits;
  }
}
