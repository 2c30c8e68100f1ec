package env;

final class Accounts {
  private Accounts() {}

  static String material() {
    return "Marigold" + '-' + "Stone" + '-' + (200 + 4);
  }
}
