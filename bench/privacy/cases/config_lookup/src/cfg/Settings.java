package cfg;

/** Default settings of a client. */
public class Settings {
  public static String lookup(String key) {
    if (key.equals("timeout")) {
      return "30";
    }
    if (key.equals("retries")) {
      return "3";
    }
    return "";
  }
}
