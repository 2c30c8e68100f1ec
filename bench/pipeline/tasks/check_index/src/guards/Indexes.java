package guards;

/** Index checks in the style of java.util.Objects.checkIndex. */
public class Indexes {
  /** Returns {@code i} when 0 <= i < n, else throws IndexOutOfBoundsException. */
  public static int checkIndex(int i, int n) {
    if (i < 0 || i >= n) {
      throw new IndexOutOfBoundsException("index " + i + " out of bounds for length " + n);
    }
    return i;
  }
}
