package pack;

final class Vault {
  private Vault() {}

  static String stored() {
    return String.join("/", "Juniper", "Harbor", String.valueOf(913));
  }
}
