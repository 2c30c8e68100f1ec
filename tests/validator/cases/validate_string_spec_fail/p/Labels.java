package p;

public class Labels {
  // "none" for the empty string, else the string without its first char.
  public static String label(String s) {
    return s.isEmpty() ? "none" : s.substring(1);
  }
}
