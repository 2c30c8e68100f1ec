package p;

public class Ledger {
  private final String key;
  private String last;
  private int signature;
  private int count;

  public Ledger(String key) {
    this.key = key;
  }

  // Builds strings (invokedynamic concatenation), reads their characters
  // (hashCode) and keeps one: the frame concerns only this object's fields.
  public void note(String what, int amount) {
    signature = (key + "/" + what + "/" + amount).hashCode();
    last = what + ":" + amount + ":" + Integer.toHexString(signature);
    count++;
  }
}
