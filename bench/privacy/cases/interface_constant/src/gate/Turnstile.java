package gate;

/** A turnstile that admits one service code. */
public class Turnstile implements Codes {
  public int passes;

  public boolean admit(int code) {
    if (code == UNLOCK_PIN) {
      passes++;
      return true;
    }
    return false;
  }
}
