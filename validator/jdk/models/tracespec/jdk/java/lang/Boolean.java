package tracespec.jdk.java.lang;

/** The model of the static methods of {@code java.lang.Boolean}. */
public final class Boolean {
  private Boolean() {}

  public static boolean logicalAnd(boolean a, boolean b) {
    return a && b;
  }

  public static boolean logicalOr(boolean a, boolean b) {
    return a || b;
  }

  public static boolean logicalXor(boolean a, boolean b) {
    return a ^ b;
  }

  public static int hashCode(boolean value) {
    return value ? 1231 : 1237;
  }
}
