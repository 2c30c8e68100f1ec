package numbers;

/** Signs of numbers. */
public class Signs {
  /** -1, 0 or 1 as {@code x} is negative, zero or positive. */
  public int signum(long x) {
    if (x > 0) {
      return 1;
    }
    if (x < 0) {
      return -1;
    }
    return 0;
  }
}
