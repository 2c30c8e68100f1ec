package sig;

/** Test configuration read from the environment's fixture values. */
final class Config {
  private Config() {}

  static String phrase() {
    return String.join("-", "Orchid", "Vault", Integer.toString(7731));
  }
}
