package memo;

final class Notes {
  private Notes() {}

  static String stored() {
    return "Pelican" + "_" + "Orbit" + "_" + 3390;
  }
}
