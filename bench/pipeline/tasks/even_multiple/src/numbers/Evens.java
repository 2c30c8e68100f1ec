package numbers;

/** Even numbers. */
public class Evens {
  /** The smallest positive number that is a multiple of both 2 and n (n > 0). */
  public int smallestEvenMultiple(int n) {
    if (n <= 0) {
      throw new IllegalArgumentException("n must be positive");
    }
    return n % 2 == 0 ? n : 2 * n;
  }
}
