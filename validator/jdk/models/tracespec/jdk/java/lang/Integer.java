package tracespec.jdk.java.lang;

/**
 * The model of the static bit and unsigned-arithmetic methods of
 * {@code java.lang.Integer}: branch-and-mask code without loops, so the
 * bounded executor needs no unwinding. Class names inside are qualified:
 * this class is itself called Integer.
 */
public final class Integer {
  private Integer() {}

  public static int numberOfLeadingZeros(int i) {
    if (i == 0) {
      return 32;
    }
    int n = 0;
    if ((i & 0xffff0000) == 0) {
      n += 16;
      i <<= 16;
    }
    if ((i & 0xff000000) == 0) {
      n += 8;
      i <<= 8;
    }
    if ((i & 0xf0000000) == 0) {
      n += 4;
      i <<= 4;
    }
    if ((i & 0xc0000000) == 0) {
      n += 2;
      i <<= 2;
    }
    if ((i & 0x80000000) == 0) {
      n += 1;
    }
    return n;
  }

  public static int numberOfTrailingZeros(int i) {
    if (i == 0) {
      return 32;
    }
    int n = 0;
    if ((i & 0xffff) == 0) {
      n += 16;
      i >>>= 16;
    }
    if ((i & 0xff) == 0) {
      n += 8;
      i >>>= 8;
    }
    if ((i & 0xf) == 0) {
      n += 4;
      i >>>= 4;
    }
    if ((i & 0x3) == 0) {
      n += 2;
      i >>>= 2;
    }
    if ((i & 0x1) == 0) {
      n += 1;
    }
    return n;
  }

  public static int highestOneBit(int i) {
    return i & (0x80000000 >>> numberOfLeadingZeros(i));
  }

  public static int lowestOneBit(int i) {
    return i & -i;
  }

  public static int rotateLeft(int i, int distance) {
    return (i << distance) | (i >>> -distance);
  }

  public static int rotateRight(int i, int distance) {
    return (i >>> distance) | (i << -distance);
  }

  public static int reverseBytes(int i) {
    return (i << 24) | ((i & 0xff00) << 8) | ((i >>> 8) & 0xff00) | (i >>> 24);
  }

  public static int reverse(int i) {
    i = ((i & 0x55555555) << 1) | ((i >>> 1) & 0x55555555);
    i = ((i & 0x33333333) << 2) | ((i >>> 2) & 0x33333333);
    i = ((i & 0x0f0f0f0f) << 4) | ((i >>> 4) & 0x0f0f0f0f);
    return reverseBytes(i);
  }

  public static long toUnsignedLong(int i) {
    return ((long) i) & 0xffffffffL;
  }

  public static int compareUnsigned(int x, int y) {
    return java.lang.Integer.compare(x + 0x80000000, y + 0x80000000);
  }

  public static int divideUnsigned(int dividend, int divisor) {
    return (int) (toUnsignedLong(dividend) / toUnsignedLong(divisor));
  }

  public static int remainderUnsigned(int dividend, int divisor) {
    return (int) (toUnsignedLong(dividend) % toUnsignedLong(divisor));
  }

  public static java.lang.String toString(int i) {
    return String.valueOf(i);
  }
}
