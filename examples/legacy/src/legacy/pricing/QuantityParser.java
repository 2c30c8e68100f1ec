package legacy.pricing;

/** Reads quantities as the workload files spell them ("12", " 7 ", "x3"). */
public final class QuantityParser {
  private QuantityParser() {}

  /** "x3" and "3" both mean 3; anything else that is not a number fails. */
  public static int parse(String text) {
    String trimmed = text.trim();
    if (trimmed.startsWith("x")) {
      trimmed = trimmed.substring(1);
    }
    return Integer.parseInt(trimmed);
  }
}
