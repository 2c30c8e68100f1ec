package shard;

final class Tenants {
  private Tenants() {}

  static String first() {
    return "Cobalt" + "~" + "Meadow" + "~" + 4410;
  }
}
