package tracespec.jdk.java.lang;

import tracespec.jdk.Intrinsics;

/**
 * The model of {@code java.lang.String} the validator executes in place of
 * the JDK class: a string is its {@code char[]} (UTF-16 code units), never
 * written after the string is made. An instance method of the JDK is a
 * static method here whose first parameter is the receiver ({@code
 * s.charAt(i)} runs {@code charAt(s, i)}); the executor reaches the
 * characters through {@link Intrinsics}. Same results, same exceptions
 * (class and message) as the JDK on every input; checked against the JDK by
 * the conformance test. Inside this package {@code String} names this
 * class: the JDK's is written {@code java.lang.String}.
 */
public final class String {
  private String() {}

  public static int length(java.lang.String s) {
    return Intrinsics.chars(s).length;
  }

  public static boolean isEmpty(java.lang.String s) {
    return Intrinsics.chars(s).length == 0;
  }

  public static char charAt(java.lang.String s, int index) {
    char[] v = Intrinsics.chars(s);
    if (index < 0 || index >= v.length) {
      // The JDK's message depends on how it stores the string: one byte per
      // char when every char is below 256 (compact strings), else two.
      if (!Intrinsics.latin1(v)) {
        throw new StringIndexOutOfBoundsException("index " + index + ", length " + v.length);
      }
      throw new StringIndexOutOfBoundsException("String index out of range: " + index);
    }
    return v[index];
  }

  public static boolean equals(java.lang.String s, Object other) {
    if (s == other) {
      return true;
    }
    if (!(other instanceof java.lang.String)) {
      return false;
    }
    char[] a = Intrinsics.chars(s);
    char[] b = Intrinsics.chars((java.lang.String) other);
    return a.length == b.length && Intrinsics.regionMatches(a, 0, b);
  }

  public static int hashCode(java.lang.String s) {
    return Intrinsics.hash(Intrinsics.chars(s));
  }

  public static int compareTo(java.lang.String s, java.lang.String other) {
    if (other == null) {
      throw new NullPointerException();
    }
    return Intrinsics.compare(Intrinsics.chars(s), Intrinsics.chars(other));
  }

  public static int indexOf(java.lang.String s, int ch) {
    char[] v = Intrinsics.chars(s);
    if (ch >= 0 && ch < 0x10000) {
      return Intrinsics.find(v, new char[] {(char) ch});
    } else if (ch >= 0x10000 && ch <= 0x10FFFF) {
      char high = (char) ((ch >>> 10) + (0xD800 - (0x10000 >>> 10)));
      char low = (char) ((ch & 0x3ff) + 0xDC00);
      return Intrinsics.find(v, new char[] {high, low});
    }
    return -1;
  }

  public static int indexOf(java.lang.String s, java.lang.String str) {
    return Intrinsics.find(Intrinsics.chars(s), Intrinsics.chars(str));
  }

  public static boolean contains(java.lang.String s, CharSequence t) {
    return indexOf(s, t.toString()) >= 0;
  }

  public static boolean startsWith(java.lang.String s, java.lang.String prefix, int offset) {
    if (offset < 0) {
      return false;
    }
    char[] v = Intrinsics.chars(s);
    char[] p = Intrinsics.chars(prefix);
    if (offset > v.length - p.length) {
      return false;
    }
    return Intrinsics.regionMatches(v, offset, p);
  }

  public static boolean startsWith(java.lang.String s, java.lang.String prefix) {
    return startsWith(s, prefix, 0);
  }

  public static boolean endsWith(java.lang.String s, java.lang.String suffix) {
    return startsWith(s, suffix, Intrinsics.chars(s).length - Intrinsics.chars(suffix).length);
  }

  public static java.lang.String substring(java.lang.String s, int begin) {
    return substring(s, begin, Intrinsics.chars(s).length);
  }

  public static java.lang.String substring(java.lang.String s, int begin, int end) {
    char[] v = Intrinsics.chars(s);
    if (begin < 0 || begin > end || end > v.length) {
      throw new StringIndexOutOfBoundsException(
          "begin " + begin + ", end " + end + ", length " + v.length);
    }
    if (begin == 0 && end == v.length) {
      return s;
    }
    if (begin == end) {
      return "";
    }
    return Intrinsics.make(Intrinsics.range(v, begin, end));
  }

  public static java.lang.String concat(java.lang.String s, java.lang.String str) {
    char[] w = Intrinsics.chars(str);
    if (w.length == 0) {
      return s;
    }
    return Intrinsics.make(Intrinsics.concat(Intrinsics.chars(s), w));
  }

  public static char[] toCharArray(java.lang.String s) {
    char[] v = Intrinsics.chars(s);
    return Intrinsics.range(v, 0, v.length);
  }

  public static java.lang.String toString(java.lang.String s) {
    return s;
  }

  public static java.lang.String valueOf(char c) {
    return Intrinsics.make(new char[] {c});
  }

  public static java.lang.String valueOf(boolean b) {
    return b ? "true" : "false";
  }

  public static java.lang.String valueOf(int i) {
    return Intrinsics.make(digits(i));
  }

  public static java.lang.String valueOf(char[] data) {
    return Intrinsics.make(Intrinsics.range(data, 0, data.length));
  }

  /**
   * The decimal digits of {@code i} as Integer.toString writes them. Written
   * without a loop: one step per possible digit, so that the executor does
   * not unwind a loop per digit of a symbolic value.
   */
  static char[] digits(int i) {
    if (i == 0x80000000) {
      return Intrinsics.chars("-2147483648");
    }
    boolean negative = i < 0;
    int n = negative ? -i : i;
    int len = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5
        : n < 1000000 ? 6 : n < 10000000 ? 7 : n < 100000000 ? 8 : n < 1000000000 ? 9 : 10;
    char[] v = new char[negative ? len + 1 : len];
    int last = v.length - 1;
    v[last] = (char) ('0' + n % 10);
    if (len > 1) {
      v[last - 1] = (char) ('0' + n / 10 % 10);
    }
    if (len > 2) {
      v[last - 2] = (char) ('0' + n / 100 % 10);
    }
    if (len > 3) {
      v[last - 3] = (char) ('0' + n / 1000 % 10);
    }
    if (len > 4) {
      v[last - 4] = (char) ('0' + n / 10000 % 10);
    }
    if (len > 5) {
      v[last - 5] = (char) ('0' + n / 100000 % 10);
    }
    if (len > 6) {
      v[last - 6] = (char) ('0' + n / 1000000 % 10);
    }
    if (len > 7) {
      v[last - 7] = (char) ('0' + n / 10000000 % 10);
    }
    if (len > 8) {
      v[last - 8] = (char) ('0' + n / 100000000 % 10);
    }
    if (len > 9) {
      v[last - 9] = (char) ('0' + n / 1000000000 % 10);
    }
    if (negative) {
      v[0] = '-';
    }
    return v;
  }
}
