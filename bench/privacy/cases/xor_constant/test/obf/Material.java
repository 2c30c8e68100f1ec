package obf;

final class Material {
  private Material() {}

  static String vault() {
    return "Copper" + "=" + "Willow" + "=" + (800 + 15);
  }
}
