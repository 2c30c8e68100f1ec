package ranges;

/** Keeps values inside a closed range. */
public class Bounds {
  /** The value nearest to {@code value} in [low, high]; low must not exceed high. */
  public int clamp(int value, int low, int high) {
    if (low > high) {
      throw new IllegalArgumentException("low > high");
    }
    if (value < low) {
      return low;
    }
    if (value > high) {
      return high;
    }
    return value;
  }
}
