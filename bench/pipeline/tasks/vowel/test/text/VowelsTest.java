package text;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VowelsTest {
  private final Vowels vowels = new Vowels();

  @Test
  void lowerVowels() {
    assertTrue(vowels.isVowel('a'));
    assertTrue(vowels.isVowel('u'));
  }

  @Test
  void upperVowel() {
    assertTrue(vowels.isVowel('E'));
  }

  @Test
  void consonants() {
    assertFalse(vowels.isVowel('b'));
    assertFalse(vowels.isVowel('Z'));
  }

  @Test
  void nonLetters() {
    assertFalse(vowels.isVowel('3'));
    assertFalse(vowels.isVowel('-'));
  }
}
