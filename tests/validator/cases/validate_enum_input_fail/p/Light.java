package p;

public class Light {
  public enum Color { RED, GREEN }

  private Color color = Color.GREEN;

  //@ ensures \result == 2;
  public int code() {
    if (color == Color.RED) {
      return 1;
    }
    return 2;
  }

  //@ ensures \result == 2;
  public int codeOf(Color c) {
    if (c == Color.RED) {
      return 1;
    }
    return 2;
  }

  //@ requires c == Color.RED;
  //@ ensures \result == 2;
  public int onlyRed(Color c) {
    return codeOf(c);
  }

  //@ ensures \result == 2;
  public int codeOfObject(Object o) {
    return o == Color.RED ? 1 : 2;
  }

  //@ ensures \result == 2;
  public static int codeOfAny(Object o) {
    return o == Color.RED ? 1 : 2;
  }

  //@ ensures \result == 1;
  public static int first() {
    return Color.RED == Color.values()[0] ? 1 : 0;
  }

  //@ ensures \result == Color.GREEN;
  public static Color pick(int x) {
    return x > 0 ? Color.RED : Color.GREEN;
  }
}
