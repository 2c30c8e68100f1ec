package p;

public class Names {
  //@ requires s != null;
  //@ ensures \result <==> s.length() > 0 && s.charAt(0) == 'x';
  public static boolean startsWithX(String s) {
    return s.startsWith("x");
  }
}
