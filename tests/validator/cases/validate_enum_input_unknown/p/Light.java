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

  //@ ensures \result == 1;
  public static int first() {
    return Color.RED == Color.values()[0] ? 1 : 0;
  }
}
