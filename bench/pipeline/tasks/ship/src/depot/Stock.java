package depot;

/** Units of one article on hand in a depot. */
public class Stock {
  private int onHand;

  public Stock(int onHand) {
    this.onHand = onHand;
  }

  /**
   * Takes {@code qty} units out; {@code qty} must be positive, and it refuses when fewer than
   * {@code qty} are on hand.
   */
  public void ship(int qty) {
    if (qty <= 0) {
      throw new IllegalArgumentException("quantity " + qty + " is not positive");
    }
    if (qty > onHand) {
      throw new IllegalStateException("only " + onHand + " on hand, " + qty + " ordered");
    }
    onHand -= qty;
  }

  public int getOnHand() {
    return onHand;
  }
}
