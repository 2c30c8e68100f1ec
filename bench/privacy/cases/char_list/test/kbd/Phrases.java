package kbd;

final class Phrases {
  private Phrases() {}

  static String stored() {
    return String.join("*", "Hazel", "Canyon", "318");
  }
}
