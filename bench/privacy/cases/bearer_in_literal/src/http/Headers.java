package http;

/** Counts the header lines of a raw request. */
public class Headers {
  public int count(String raw) {
    int n = 0;
    for (String line : raw.split("\r\n")) {
      if (line.indexOf(':') > 0) {
        n++;
      }
    }
    return n;
  }
}
