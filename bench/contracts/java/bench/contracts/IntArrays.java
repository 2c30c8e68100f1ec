package bench.contracts;

/** Small tasks over int arrays, most with one loop. */
public final class IntArrays {
  private IntArrays() {}

  /** No check of its own: a bad index raises ArrayIndexOutOfBoundsException. */
  public static int elementAt(int[] a, int i) {
    return a[i];
  }

  public static int max(int[] a) {
    if (a.length == 0) {
      throw new IllegalArgumentException("empty array");
    }
    int m = a[0];
    for (int i = 1; i < a.length; i++) {
      if (a[i] > m) {
        m = a[i];
      }
    }
    return m;
  }

  public static int minIndex(int[] a) {
    if (a.length == 0) {
      throw new IllegalArgumentException("empty array");
    }
    int best = 0;
    for (int i = 1; i < a.length; i++) {
      if (a[i] < a[best]) {
        best = i;
      }
    }
    return best;
  }

  public static int binarySearch(int[] a, int key) {
    int lo = 0;
    int hi = a.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] < key) {
        lo = mid + 1;
      } else if (a[mid] > key) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  public static boolean isSorted(int[] a) {
    for (int i = 0; i + 1 < a.length; i++) {
      if (a[i] > a[i + 1]) {
        return false;
      }
    }
    return true;
  }

  public static int firstZero(int[] a) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  public static int lastIndexOf(int[] a, int x) {
    for (int i = a.length - 1; i >= 0; i--) {
      if (a[i] == x) {
        return i;
      }
    }
    return -1;
  }

  public static int count(int[] a, int x) {
    int n = 0;
    for (int v : a) {
      if (v == x) {
        n++;
      }
    }
    return n;
  }

  public static int countAscents(int[] a) {
    int n = 0;
    for (int i = 1; i < a.length; i++) {
      if (a[i - 1] < a[i]) {
        n++;
      }
    }
    return n;
  }

  public static int sum(int[] a) {
    int s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i];
    }
    return s;
  }

  public static boolean contains(int[] a, int x) {
    for (int v : a) {
      if (v == x) {
        return true;
      }
    }
    return false;
  }

  public static boolean allNonNegative(int[] a) {
    for (int v : a) {
      if (v < 0) {
        return false;
      }
    }
    return true;
  }

  public static boolean sameElements(int[] a, int[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return false;
      }
    }
    return true;
  }

  public static void copyInto(int[] src, int[] dst) {
    if (dst.length < src.length) {
      throw new IllegalArgumentException("target too short");
    }
    for (int i = 0; i < src.length; i++) {
      dst[i] = src[i];
    }
  }

  public static void swap(int[] a, int i, int j) {
    if (i < 0 || j < 0 || i >= a.length || j >= a.length) {
      throw new IllegalArgumentException("index out of range");
    }
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }

  public static void reverse(int[] a) {
    for (int i = 0, j = a.length - 1; i < j; i++, j--) {
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  public static void fill(int[] a, int v) {
    for (int i = 0; i < a.length; i++) {
      a[i] = v;
    }
  }

  public static int clampAll(int[] a, int limit) {
    int changed = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] > limit) {
        a[i] = limit;
        changed++;
      }
    }
    return changed;
  }
}
