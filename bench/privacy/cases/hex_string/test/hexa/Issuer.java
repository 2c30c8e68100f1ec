package hexa;

final class Issuer {
  private Issuer() {}

  static String current() {
    return String.join(":", "Falcon", "Ridge", "606");
  }
}
