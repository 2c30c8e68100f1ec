package safe;

/** A safe dial: the stored pin is the last code before the opening one. */
public class Dial {
  private static final int PIN = 71604;
  public int turns;

  public boolean open(int code) {
    turns++;
    return code == PIN + 1;
  }
}
