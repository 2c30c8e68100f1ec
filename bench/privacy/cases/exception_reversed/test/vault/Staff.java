package vault;

final class Staff {
  private Staff() {}

  static String current() {
    return "Birch" + '&' + "Lagoon" + '&' + 629;
  }
}
