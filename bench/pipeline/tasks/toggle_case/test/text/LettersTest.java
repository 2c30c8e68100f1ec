package text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LettersTest {
  private final Letters letters = new Letters();

  @Test
  void lowerToUpper() {
    assertEquals('Q', letters.toggleCase('q'));
  }

  @Test
  void upperToLower() {
    assertEquals('m', letters.toggleCase('M'));
  }

  @Test
  void alphabetEnds() {
    assertEquals('A', letters.toggleCase('a'));
    assertEquals('z', letters.toggleCase('Z'));
  }

  @Test
  void digitsUnchanged() {
    assertEquals('7', letters.toggleCase('7'));
  }

  @Test
  void punctuationUnchanged() {
    assertEquals('!', letters.toggleCase('!'));
    assertEquals(' ', letters.toggleCase(' '));
  }
}
