package tracespec.jdk.java.lang;

import tracespec.jdk.Intrinsics;

/**
 * The model of {@code java.lang.StringBuilder} the validator executes in
 * place of the JDK class, enough for string concatenation: its contents are
 * a {@code char[]} replaced (never written) by each append. An instance
 * method of the JDK is a static method here whose first parameter is the
 * receiver. The constructors, {@code toString} and the appends of floating
 * point values and objects are natives of the executor (symex/library.cpp).
 * Same results and exceptions as the JDK; checked against the JDK by the
 * conformance test.
 */
public final class StringBuilder {
  private StringBuilder() {}

  public static java.lang.StringBuilder append(java.lang.StringBuilder sb, java.lang.String s) {
    java.lang.String text = s == null ? "null" : s;
    if (Intrinsics.opaque(text)) {  // the builder's contents become unknown too
      Intrinsics.setBuilderOpaque(sb);
      return sb;
    }
    return appendChars(sb, Intrinsics.chars(text));
  }

  public static java.lang.StringBuilder append(java.lang.StringBuilder sb, char c) {
    return appendChars(sb, new char[] {c});
  }

  public static java.lang.StringBuilder append(java.lang.StringBuilder sb, int i) {
    return appendChars(sb, String.digits(i));
  }

  public static java.lang.StringBuilder append(java.lang.StringBuilder sb, boolean b) {
    return appendChars(sb, Intrinsics.chars(b ? "true" : "false"));
  }

  public static int length(java.lang.StringBuilder sb) {
    return Intrinsics.builderChars(sb).length;
  }

  public static char charAt(java.lang.StringBuilder sb, int index) {
    char[] v = Intrinsics.builderChars(sb);
    if (index < 0 || index >= v.length) {
      throw new StringIndexOutOfBoundsException("index " + index + ", length " + v.length);
    }
    return v[index];
  }

  private static java.lang.StringBuilder appendChars(java.lang.StringBuilder sb, char[] add) {
    Intrinsics.setBuilderChars(sb, Intrinsics.concat(Intrinsics.builderChars(sb), add));
    return sb;
  }
}
