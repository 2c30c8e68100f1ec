package bench.contracts;

import java.util.Arrays;
import java.util.Objects;

/** Small tasks that call java.util.Arrays and java.util.Objects. */
public final class Util {
  private Util() {}

  /** The largest element, through a sorted copy; the argument is untouched. */
  public static int largest(int[] a) {
    if (a.length == 0) {
      throw new IllegalArgumentException("empty array");
    }
    int[] s = Arrays.copyOf(a, a.length);
    Arrays.sort(s);
    return s[s.length - 1];
  }

  /** A new array with v appended. */
  public static int[] append(int[] a, int v) {
    int[] b = Arrays.copyOf(a, a.length + 1);
    b[a.length] = v;
    return b;
  }

  /** The elements from index from on, as a new array. */
  public static int[] dropFirst(int[] a, int from) {
    return Arrays.copyOfRange(a, from, a.length);
  }

  /** Whether a key occurs in a sorted array. */
  public static boolean member(int[] sorted, int key) {
    return Arrays.binarySearch(sorted, key) >= 0;
  }

  /** Whether the two arrays hold the same elements in the same order. */
  public static boolean sameContents(int[] a, int[] b) {
    return Arrays.equals(a, b);
  }

  /** Sets every element to zero and returns how many were not zero. */
  public static int clear(int[] a) {
    int n = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] != 0) {
        n++;
      }
    }
    Arrays.fill(a, 0);
    return n;
  }

  /** The element at i, with the JDK's index check. */
  public static int checkedGet(int[] a, int i) {
    return a[Objects.checkIndex(i, a.length)];
  }

  /** Null-safe equality of two boxed values. */
  public static boolean sameValue(Integer x, Integer y) {
    return Objects.equals(x, y);
  }
}
