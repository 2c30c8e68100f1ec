package lex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LexerTest {
  @Test
  void threeWords() {
    assertEquals(3, Lexer.tokenize("alpha beta  gamma"));
  }

  @Test
  void blankLine() {
    assertEquals(0, Lexer.tokenize("   "));
  }
}
