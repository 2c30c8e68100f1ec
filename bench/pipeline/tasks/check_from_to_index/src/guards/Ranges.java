package guards;

/** Sub-range checks in the style of java.util.Objects.checkFromToIndex. */
public class Ranges {
  /**
   * Returns {@code from} when [from, to) is a sub-range of [0, n), else throws
   * IndexOutOfBoundsException.
   */
  public static int checkFromToIndex(int from, int to, int n) {
    if (from < 0 || from > to || to > n) {
      throw new IndexOutOfBoundsException("range [" + from + ", " + to + ") out of bounds for length " + n);
    }
    return from;
  }
}
