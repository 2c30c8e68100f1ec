package ui;

/** Keyboard shortcuts of the menu slots. */
public class Shortcuts {
  public static char hotkeyFor(int slot) {
    if (slot < 0 || slot > 8) {
      throw new IllegalArgumentException("slot");
    }
    return (char) ('1' + slot);
  }
}
