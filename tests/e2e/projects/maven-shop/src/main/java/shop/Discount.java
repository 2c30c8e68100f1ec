package shop;

/** Percentage discounts on prices in cents. */
public final class Discount {
  private Discount() {}

  public static long apply(long cents, int percent) {
    if (percent < 0 || percent > 100) {
      throw new IllegalArgumentException("percent out of range");
    }
    return cents - cents * percent / 100;
  }
}
