package text;

/** English vowels. */
public class Vowels {
  /** True for a, e, i, o, u in either case. */
  public boolean isVowel(char c) {
    char lower = Character.toLowerCase(c);
    return lower == 'a' || lower == 'e' || lower == 'i' || lower == 'o' || lower == 'u';
  }
}
