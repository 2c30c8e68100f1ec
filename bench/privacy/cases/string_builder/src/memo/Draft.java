package memo;

/** Composes a memo that quotes the stored note. */
public class Draft {
  private final String secretNote;
  public StringBuilder body = new StringBuilder();

  public Draft(String secretNote) {
    this.secretNote = secretNote;
  }

  public int compose(int copies) {
    body = new StringBuilder("memo x").append(copies).append(": ").append(secretNote);
    return body.length();
  }
}
