package legacy.pricing;

/** Prices of an order: what the legacy system charges. */
public final class PriceCalculator {
  private PriceCalculator() {}

  /** The price of {@code quantity} items at {@code unitPrice} each. */
  public static int quote(int unitPrice, int quantity) {
    if (quantity <= 0) {
      throw new IllegalArgumentException("quantity must be positive");
    }
    return unitPrice * quantity;
  }

  /** The sum of the prices. */
  public static int total(int[] prices) {
    int sum = 0;
    for (int i = 0; i < prices.length; i++) {
      sum += prices[i];
    }
    return sum;
  }
}
