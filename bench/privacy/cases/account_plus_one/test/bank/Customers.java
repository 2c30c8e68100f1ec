package bank;

final class Customers {
  private Customers() {}

  static long first() {
    return Long.parseLong("49291177" + "35210447");
  }
}
