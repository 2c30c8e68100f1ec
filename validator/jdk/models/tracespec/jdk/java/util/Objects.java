package tracespec.jdk.java.util;

import java.util.Comparator;

/**
 * The model of {@code java.util.Objects} the validator executes in place of
 * the JDK class. Same results, same exceptions (class and message) as the JDK
 * on every input; checked against the JDK by the conformance test.
 */
public final class Objects {
  private Objects() {}

  public static boolean equals(Object a, Object b) {
    if (a == b) {
      return true;
    }
    return a != null && a.equals(b);
  }

  public static int hashCode(Object o) {
    return o == null ? 0 : o.hashCode();
  }

  public static boolean isNull(Object o) {
    return o == null;
  }

  public static boolean nonNull(Object o) {
    return o != null;
  }

  public static <T> T requireNonNull(T o) {
    if (o == null) {
      throw new NullPointerException();
    }
    return o;
  }

  public static <T> T requireNonNull(T o, String message) {
    if (o == null) {
      throw new NullPointerException(message);
    }
    return o;
  }

  public static <T> T requireNonNullElse(T o, T fallback) {
    if (o != null) {
      return o;
    }
    if (fallback == null) {
      throw new NullPointerException("defaultObj");
    }
    return fallback;
  }

  public static <T> int compare(T a, T b, Comparator<? super T> order) {
    if (a == b) {
      return 0;
    }
    return order.compare(a, b);
  }

  public static int checkIndex(int index, int length) {
    if (index < 0 || index >= length) {
      throw new IndexOutOfBoundsException(
          "Index " + index + " out of bounds for length " + length);
    }
    return index;
  }

  public static int checkFromToIndex(int from, int to, int length) {
    if (from < 0 || from > to || to > length) {
      throw new IndexOutOfBoundsException(
          "Range [" + from + ", " + to + ") out of bounds for length " + length);
    }
    return from;
  }
}
