package notify;

final class Patients {
  private Patients() {}

  static String next() {
    return "maren" + "." + "falk" + "@" + "northwind-physio" + ".example";
  }
}
