package tracespec.jdk;

/**
 * The few operations the string models cannot say in Java: reaching a
 * string's or a builder's characters and making a string from characters.
 * The validator's executor runs its own natives in their place
 * (symex/library.cpp: a string is a {@code char[]} that is never written
 * after the string is made); these bodies do the same on a real JVM, so
 * that the conformance test runs the models against the JDK.
 */
public final class Intrinsics {
  private Intrinsics() {}

  /** The characters of {@code s} (never written by the caller). */
  public static char[] chars(String s) {
    return s.toCharArray();
  }

  /**
   * Whether the executor does not know the characters of {@code s} (a
   * string made by a library method whose text is not modelled). On a JVM
   * every string's characters are known.
   */
  public static boolean opaque(String s) {
    return false;
  }

  /** Makes the contents of {@code sb} unknown (only after opaque()). */
  public static void setBuilderOpaque(StringBuilder sb) {
    throw new IllegalStateException("no string is opaque on a JVM");
  }

  /** A new string of the characters {@code v} (never written afterwards). */
  public static String make(char[] v) {
    return new String(v);
  }

  /** The characters of {@code sb} (never written by the caller). */
  public static char[] builderChars(StringBuilder sb) {
    return sb.toString().toCharArray();
  }

  /** Makes {@code v} the contents of {@code sb} (never written afterwards). */
  public static void setBuilderChars(StringBuilder sb, char[] v) {
    sb.setLength(0);
    sb.append(v);
  }

  /** A new array: {@code a} followed by {@code b}. */
  public static char[] concat(char[] a, char[] b) {
    char[] v = new char[a.length + b.length];
    System.arraycopy(a, 0, v, 0, a.length);
    System.arraycopy(b, 0, v, a.length, b.length);
    return v;
  }

  /** A new array: {@code a[from..to)}; the caller checks the bounds. */
  public static char[] range(char[] a, int from, int to) {
    char[] v = new char[to - from];
    System.arraycopy(a, from, v, 0, to - from);
    return v;
  }

  // Searches and comparisons of whole char arrays: loops here, closed
  // formulas over the (bounded) lengths in the executor, so that a string
  // operation costs no loop unwinding.

  /** Whether {@code w} occurs in {@code v} at {@code at} (within bounds). */
  public static boolean regionMatches(char[] v, int at, char[] w) {
    for (int j = 0; j < w.length; j++) {
      if (v[at + j] != w[j]) {
        return false;
      }
    }
    return true;
  }

  /** The first index of {@code w} in {@code v}, or -1. */
  public static int find(char[] v, char[] w) {
    for (int i = 0; i + w.length <= v.length; i++) {
      if (regionMatches(v, i, w)) {
        return i;
      }
    }
    return -1;
  }

  /** The JDK's string hash of {@code v}. */
  public static int hash(char[] v) {
    int h = 0;
    for (int i = 0; i < v.length; i++) {
      h = 31 * h + v[i];
    }
    return h;
  }

  /** String.compareTo on the characters. */
  public static int compare(char[] a, char[] b) {
    int n = a.length < b.length ? a.length : b.length;
    for (int i = 0; i < n; i++) {
      if (a[i] != b[i]) {
        return a[i] - b[i];
      }
    }
    return a.length - b.length;
  }

  /** Whether every char is below 256 (the JDK stores one byte per char). */
  public static boolean latin1(char[] v) {
    for (int i = 0; i < v.length; i++) {
      if (v[i] > 0xFF) {
        return false;
      }
    }
    return true;
  }
}
