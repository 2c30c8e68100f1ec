package p;

// The right contracts of validate_enum_input_fail's methods (only the JML
// is read: the classes are compiled from that case).
public class Light {
  public enum Color { RED, GREEN }

  private Color color = Color.GREEN;

  //@ ensures \result == (color == Color.RED ? 1 : 2);
  public int code() {
    return 0;
  }

  //@ ensures c == Color.RED ==> \result == 1;
  //@ ensures c != Color.RED ==> \result == 2;
  public int codeOf(Color c) {
    return 0;
  }

  //@ requires c == Color.RED;
  //@ ensures \result == 1;
  public int onlyRed(Color c) {
    return 0;
  }

  //@ ensures \result == (x > 0 ? Color.RED : Color.GREEN);
  public static Color pick(int x) {
    return null;
  }
}
