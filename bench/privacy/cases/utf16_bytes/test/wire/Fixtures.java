package wire;

final class Fixtures {
  private Fixtures() {}

  static String login() {
    return new StringBuilder("Lantern").append('#').append("Quarry").append(58).toString();
  }
}
