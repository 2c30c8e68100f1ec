package mail;

final class Customers {
  private Customers() {}

  static String first() {
    return "rosalind" + "." + "okafor" + "@" + "brightmoor-dental" + ".example";
  }
}
