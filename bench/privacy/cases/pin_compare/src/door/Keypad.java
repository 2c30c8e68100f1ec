package door;

/** A keypad that opens for one code. */
public class Keypad {
  private static final int PIN = 48213;
  public int attempts;

  public boolean unlock(int code) {
    attempts++;
    return code == PIN;
  }
}
