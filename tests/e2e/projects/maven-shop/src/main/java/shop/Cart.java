package shop;

/** A shopping cart: item count and total price in cents. */
public class Cart {
  private int items;
  private long totalCents;

  public void add(int priceCents, int quantity) {
    if (priceCents < 0 || quantity <= 0) {
      throw new IllegalArgumentException("bad item");
    }
    items += quantity;
    totalCents += (long) priceCents * quantity;
  }

  public int itemCount() {
    return items;
  }

  public long total() {
    return totalCents;
  }

  public void clear() {
    items = 0;
    totalCents = 0;
  }
}
