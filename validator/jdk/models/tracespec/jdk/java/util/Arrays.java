package tracespec.jdk.java.util;

/**
 * The model of {@code java.util.Arrays} the validator executes in place of the
 * JDK class: the same results and exceptions (class and message) as the JDK
 * on every input, written for a bounded symbolic executor (plain loops,
 * insertion sort; a sort of primitives has one correct result, so the
 * algorithm is not observable). Checked against the JDK by the conformance
 * test (tests/validator/jdk_conformance). Methods not here are not modelled:
 * the validator reports a call of them as unsupported.
 */
public final class Arrays {
  private Arrays() {}

  private static void rangeCheck(int length, int from, int to) {
    if (from > to) {
      throw new IllegalArgumentException("fromIndex(" + from + ") > toIndex(" + to + ")");
    }
    if (from < 0) {
      throw new ArrayIndexOutOfBoundsException("Array index out of range: " + from);
    }
    if (to > length) {
      throw new ArrayIndexOutOfBoundsException("Array index out of range: " + to);
    }
  }

  public static int[] copyOf(int[] original, int newLength) {
    int[] copy = new int[newLength];
    System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
    return copy;
  }

  public static int[] copyOfRange(int[] original, int from, int to) {
    int newLength = to - from;
    if (newLength < 0) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    int[] copy = new int[newLength];
    System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
    return copy;
  }

  public static void fill(int[] a, int value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(int[] a, int from, int to, int value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(int[] a, int[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] == b[i])) {
        return false;
      }
    }
    return true;
  }

  public static void sort(int[] a) {
    sort(a, 0, a.length);
  }

  public static void sort(int[] a, int from, int to) {
    rangeCheck(a.length, from, to);
    for (int i = from + 1; i < to; i++) {
      int x = a[i];
      int j = i - 1;
      while (j >= from && x < a[j]) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  public static int binarySearch(int[] a, int key) {
    return search(a, 0, a.length, key);
  }

  public static int binarySearch(int[] a, int from, int to, int key) {
    rangeCheck(a.length, from, to);
    return search(a, from, to, key);
  }

  private static int search(int[] a, int from, int to, int key) {
    int low = from;
    int high = to - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (a[mid] < key) {
        low = mid + 1;
      } else if (a[mid] > key) {
        high = mid - 1;
      } else {
        return mid;
      }
    }
    return -(low + 1);
  }

  public static int hashCode(int[] a) {
    if (a == null) {
      return 0;
    }
    int h = 1;
    for (int i = 0; i < a.length; i++) {
      int e = a[i];
      h = 31 * h + e;
    }
    return h;
  }

  public static long[] copyOf(long[] original, int newLength) {
    long[] copy = new long[newLength];
    System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
    return copy;
  }

  public static long[] copyOfRange(long[] original, int from, int to) {
    int newLength = to - from;
    if (newLength < 0) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    long[] copy = new long[newLength];
    System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
    return copy;
  }

  public static void fill(long[] a, long value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(long[] a, int from, int to, long value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(long[] a, long[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] == b[i])) {
        return false;
      }
    }
    return true;
  }

  public static void sort(long[] a) {
    sort(a, 0, a.length);
  }

  public static void sort(long[] a, int from, int to) {
    rangeCheck(a.length, from, to);
    for (int i = from + 1; i < to; i++) {
      long x = a[i];
      int j = i - 1;
      while (j >= from && x < a[j]) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  public static int binarySearch(long[] a, long key) {
    return search(a, 0, a.length, key);
  }

  public static int binarySearch(long[] a, int from, int to, long key) {
    rangeCheck(a.length, from, to);
    return search(a, from, to, key);
  }

  private static int search(long[] a, int from, int to, long key) {
    int low = from;
    int high = to - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (a[mid] < key) {
        low = mid + 1;
      } else if (a[mid] > key) {
        high = mid - 1;
      } else {
        return mid;
      }
    }
    return -(low + 1);
  }

  public static int hashCode(long[] a) {
    if (a == null) {
      return 0;
    }
    int h = 1;
    for (int i = 0; i < a.length; i++) {
      long e = a[i];
      h = 31 * h + (int) (e ^ (e >>> 32));
    }
    return h;
  }

  public static short[] copyOf(short[] original, int newLength) {
    short[] copy = new short[newLength];
    System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
    return copy;
  }

  public static short[] copyOfRange(short[] original, int from, int to) {
    int newLength = to - from;
    if (newLength < 0) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    short[] copy = new short[newLength];
    System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
    return copy;
  }

  public static void fill(short[] a, short value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(short[] a, int from, int to, short value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(short[] a, short[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] == b[i])) {
        return false;
      }
    }
    return true;
  }

  public static void sort(short[] a) {
    sort(a, 0, a.length);
  }

  public static void sort(short[] a, int from, int to) {
    rangeCheck(a.length, from, to);
    for (int i = from + 1; i < to; i++) {
      short x = a[i];
      int j = i - 1;
      while (j >= from && x < a[j]) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  public static int binarySearch(short[] a, short key) {
    return search(a, 0, a.length, key);
  }

  public static int binarySearch(short[] a, int from, int to, short key) {
    rangeCheck(a.length, from, to);
    return search(a, from, to, key);
  }

  private static int search(short[] a, int from, int to, short key) {
    int low = from;
    int high = to - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (a[mid] < key) {
        low = mid + 1;
      } else if (a[mid] > key) {
        high = mid - 1;
      } else {
        return mid;
      }
    }
    return -(low + 1);
  }

  public static int hashCode(short[] a) {
    if (a == null) {
      return 0;
    }
    int h = 1;
    for (int i = 0; i < a.length; i++) {
      short e = a[i];
      h = 31 * h + e;
    }
    return h;
  }

  public static char[] copyOf(char[] original, int newLength) {
    char[] copy = new char[newLength];
    System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
    return copy;
  }

  public static char[] copyOfRange(char[] original, int from, int to) {
    int newLength = to - from;
    if (newLength < 0) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    char[] copy = new char[newLength];
    System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
    return copy;
  }

  public static void fill(char[] a, char value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(char[] a, int from, int to, char value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(char[] a, char[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] == b[i])) {
        return false;
      }
    }
    return true;
  }

  public static void sort(char[] a) {
    sort(a, 0, a.length);
  }

  public static void sort(char[] a, int from, int to) {
    rangeCheck(a.length, from, to);
    for (int i = from + 1; i < to; i++) {
      char x = a[i];
      int j = i - 1;
      while (j >= from && x < a[j]) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  public static int binarySearch(char[] a, char key) {
    return search(a, 0, a.length, key);
  }

  public static int binarySearch(char[] a, int from, int to, char key) {
    rangeCheck(a.length, from, to);
    return search(a, from, to, key);
  }

  private static int search(char[] a, int from, int to, char key) {
    int low = from;
    int high = to - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (a[mid] < key) {
        low = mid + 1;
      } else if (a[mid] > key) {
        high = mid - 1;
      } else {
        return mid;
      }
    }
    return -(low + 1);
  }

  public static int hashCode(char[] a) {
    if (a == null) {
      return 0;
    }
    int h = 1;
    for (int i = 0; i < a.length; i++) {
      char e = a[i];
      h = 31 * h + e;
    }
    return h;
  }

  public static byte[] copyOf(byte[] original, int newLength) {
    byte[] copy = new byte[newLength];
    System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
    return copy;
  }

  public static byte[] copyOfRange(byte[] original, int from, int to) {
    int newLength = to - from;
    if (newLength < 0) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    byte[] copy = new byte[newLength];
    System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
    return copy;
  }

  public static void fill(byte[] a, byte value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(byte[] a, int from, int to, byte value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(byte[] a, byte[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] == b[i])) {
        return false;
      }
    }
    return true;
  }

  public static void sort(byte[] a) {
    sort(a, 0, a.length);
  }

  public static void sort(byte[] a, int from, int to) {
    rangeCheck(a.length, from, to);
    for (int i = from + 1; i < to; i++) {
      byte x = a[i];
      int j = i - 1;
      while (j >= from && x < a[j]) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  public static int binarySearch(byte[] a, byte key) {
    return search(a, 0, a.length, key);
  }

  public static int binarySearch(byte[] a, int from, int to, byte key) {
    rangeCheck(a.length, from, to);
    return search(a, from, to, key);
  }

  private static int search(byte[] a, int from, int to, byte key) {
    int low = from;
    int high = to - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (a[mid] < key) {
        low = mid + 1;
      } else if (a[mid] > key) {
        high = mid - 1;
      } else {
        return mid;
      }
    }
    return -(low + 1);
  }

  public static int hashCode(byte[] a) {
    if (a == null) {
      return 0;
    }
    int h = 1;
    for (int i = 0; i < a.length; i++) {
      byte e = a[i];
      h = 31 * h + e;
    }
    return h;
  }

  public static boolean[] copyOf(boolean[] original, int newLength) {
    boolean[] copy = new boolean[newLength];
    System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
    return copy;
  }

  public static boolean[] copyOfRange(boolean[] original, int from, int to) {
    int newLength = to - from;
    if (newLength < 0) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    boolean[] copy = new boolean[newLength];
    System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
    return copy;
  }

  public static void fill(boolean[] a, boolean value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(boolean[] a, int from, int to, boolean value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(boolean[] a, boolean[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] == b[i])) {
        return false;
      }
    }
    return true;
  }

  public static float[] copyOf(float[] original, int newLength) {
    float[] copy = new float[newLength];
    System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
    return copy;
  }

  public static float[] copyOfRange(float[] original, int from, int to) {
    int newLength = to - from;
    if (newLength < 0) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    float[] copy = new float[newLength];
    System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
    return copy;
  }

  public static void fill(float[] a, float value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(float[] a, int from, int to, float value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(float[] a, float[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!(((a[i] == b[i] && (a[i] != 0 || 1 / a[i] == 1 / b[i])) || (a[i] != a[i] && b[i] != b[i])))) {
        return false;
      }
    }
    return true;
  }

  public static void sort(float[] a) {
    sort(a, 0, a.length);
  }

  public static void sort(float[] a, int from, int to) {
    rangeCheck(a.length, from, to);
    for (int i = from + 1; i < to; i++) {
      float x = a[i];
      int j = i - 1;
      while (j >= from && Float.compare(x, a[j]) < 0) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  public static double[] copyOf(double[] original, int newLength) {
    double[] copy = new double[newLength];
    System.arraycopy(original, 0, copy, 0, Math.min(original.length, newLength));
    return copy;
  }

  public static double[] copyOfRange(double[] original, int from, int to) {
    int newLength = to - from;
    if (newLength < 0) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    double[] copy = new double[newLength];
    System.arraycopy(original, from, copy, 0, Math.min(original.length - from, newLength));
    return copy;
  }

  public static void fill(double[] a, double value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(double[] a, int from, int to, double value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(double[] a, double[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!(((a[i] == b[i] && (a[i] != 0 || 1 / a[i] == 1 / b[i])) || (a[i] != a[i] && b[i] != b[i])))) {
        return false;
      }
    }
    return true;
  }

  public static void sort(double[] a) {
    sort(a, 0, a.length);
  }

  public static void sort(double[] a, int from, int to) {
    rangeCheck(a.length, from, to);
    for (int i = from + 1; i < to; i++) {
      double x = a[i];
      int j = i - 1;
      while (j >= from && Double.compare(x, a[j]) < 0) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  public static int hashCode(boolean[] a) {
    if (a == null) {
      return 0;
    }
    int h = 1;
    for (int i = 0; i < a.length; i++) {
      h = 31 * h + (a[i] ? 1231 : 1237);
    }
    return h;
  }

  public static void fill(Object[] a, Object value) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value;
    }
  }

  public static void fill(Object[] a, int from, int to, Object value) {
    rangeCheck(a.length, from, to);
    for (int i = from; i < to; i++) {
      a[i] = value;
    }
  }

  public static boolean equals(Object[] a, Object[] b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      Object x = a[i];
      Object y = b[i];
      if (x != y && (x == null || !x.equals(y))) {
        return false;
      }
    }
    return true;
  }

  public static int hashCode(Object[] a) {
    if (a == null) {
      return 0;
    }
    int h = 1;
    for (int i = 0; i < a.length; i++) {
      Object e = a[i];
      h = 31 * h + (e == null ? 0 : e.hashCode());
    }
    return h;
  }
}
