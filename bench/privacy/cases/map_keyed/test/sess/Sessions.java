package sess;

final class Sessions {
  private Sessions() {}

  static String current() {
    return String.join(".", "Glacier", "Amber", Integer.toString(5127));
  }
}
