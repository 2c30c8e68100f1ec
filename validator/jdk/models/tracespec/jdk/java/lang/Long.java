package tracespec.jdk.java.lang;

/**
 * The model of the static bit methods of {@code java.lang.Long}, on the
 * two halves of the value with the Integer model's methods. Class names
 * inside are qualified: this class is itself called Long.
 */
public final class Long {
  private Long() {}

  public static int numberOfLeadingZeros(long i) {
    int high = (int) (i >>> 32);
    return high == 0 ? 32 + java.lang.Integer.numberOfLeadingZeros((int) i)
        : java.lang.Integer.numberOfLeadingZeros(high);
  }

  public static int numberOfTrailingZeros(long i) {
    int low = (int) i;
    return low == 0 ? 32 + java.lang.Integer.numberOfTrailingZeros((int) (i >>> 32))
        : java.lang.Integer.numberOfTrailingZeros(low);
  }

  public static long highestOneBit(long i) {
    return i & (0x8000000000000000L >>> numberOfLeadingZeros(i));
  }

  public static long lowestOneBit(long i) {
    return i & -i;
  }

  public static long rotateLeft(long i, int distance) {
    return (i << distance) | (i >>> -distance);
  }

  public static long rotateRight(long i, int distance) {
    return (i >>> distance) | (i << -distance);
  }

  public static int compareUnsigned(long x, long y) {
    return java.lang.Long.compare(x + 0x8000000000000000L, y + 0x8000000000000000L);
  }

  public static int hashCode(long value) {
    return (int) (value ^ (value >>> 32));
  }
}
