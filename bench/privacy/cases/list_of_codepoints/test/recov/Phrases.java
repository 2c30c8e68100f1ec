package recov;

final class Phrases {
  private Phrases() {}

  static String stored() {
    return "Saffron" + '+' + "Delta" + '+' + 262;
  }
}
