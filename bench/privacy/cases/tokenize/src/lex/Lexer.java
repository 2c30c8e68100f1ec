package lex;

/** Splits text into words. */
public class Lexer {
  /** The number of words of line, separated by runs of spaces. */
  public static int tokenize(String line) {
    int words = 0;
    boolean inWord = false;
    for (int i = 0; i < line.length(); i++) {
      boolean space = line.charAt(i) == ' ';
      if (!space && !inWord) {
        words++;
      }
      inWord = !space;
    }
    return words;
  }
}
