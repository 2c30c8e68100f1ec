package text;

/** Parsing single decimal digits. */
public class Digit {
  /** The value of the decimal digit {@code c}; anything else is rejected. */
  public int value(char c) {
    if (c < '0' || c > '9') {
      throw new IllegalArgumentException("not a digit: " + c);
    }
    return c - '0';
  }
}
