package lic;

final class Store {
  private Store() {}

  static String purchased() {
    return "Quartz" + '^' + "Bramble" + '^' + 77;
  }
}
