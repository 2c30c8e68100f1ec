package text;

/** ASCII letter helpers. */
public class Letters {
  /** Upper-case ASCII letters become lower case and the other way round; other chars are kept. */
  public char toggleCase(char c) {
    if (c >= 'a' && c <= 'z') {
      return (char) (c - 32);
    }
    if (c >= 'A' && c <= 'Z') {
      return (char) (c + 32);
    }
    return c;
  }
}
