package vault;

/** A vault lock: the opening code is one past the stored pin, computed at run time. */
public class Lock {
  private static final int PIN = 52977;
  public int attempts;

  public boolean open(int code) {
    attempts++;
    int shifted = code - 1;
    return shifted == PIN;
  }
}
