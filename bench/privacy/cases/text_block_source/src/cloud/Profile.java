package cloud;

/** Reads a credentials profile. */
public class Profile {
  public int lines(String text) {
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        n++;
      }
    }
    return n;
  }
}
