package legacy.pricing;

/** A shopping cart: how many items, and what they cost together. */
public class Cart {
  private int items;
  private int total;

  public Cart() {}

  public Cart(int items, int total) {
    this.items = items;
    this.total = total;
  }

  /** Adds one item; a negative price is refused. */
  public void add(int price) {
    if (price < 0) {
      throw new IllegalArgumentException("negative price");
    }
    items = items + 1;
    total = total + price;
  }

  public int getItems() {
    return items;
  }

  public int getTotal() {
    return total;
  }
}
