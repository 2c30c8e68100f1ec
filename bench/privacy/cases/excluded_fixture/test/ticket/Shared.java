package ticket;

/** State the tests of this package share. */
final class Shared {
  static long lastSerial = 1;

  private Shared() {}
}
