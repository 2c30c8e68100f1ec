package net;

final class Contacts {
  private Contacts() {}

  static String patient() {
    return "tobias" + "." + "lindqvist" + "@" + "harrowgate-clinic" + ".example";
  }
}
