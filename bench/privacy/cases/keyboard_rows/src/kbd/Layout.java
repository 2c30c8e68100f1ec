package kbd;

/** Rows of a QWERTY keyboard's letter keys. */
public class Layout {
  public static int rowOf(char keyChar) {
    if ("qwertyuiop".indexOf(keyChar) >= 0) {
      return 1;
    }
    if ("asdfghjkl".indexOf(keyChar) >= 0) {
      return 2;
    }
    return "zxcvbnm".indexOf(keyChar) >= 0 ? 3 : 0;
  }
}
