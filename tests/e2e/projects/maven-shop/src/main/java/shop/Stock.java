package shop;

/** Units on hand of one product. */
public class Stock {
  private int onHand;

  public Stock(int onHand) {
    this.onHand = onHand;
  }

  public void take(int units) {
    if (units > onHand) {
      throw new IllegalStateException("not enough stock");
    }
    onHand -= units;
  }

  public int onHand() {
    return onHand;
  }
}
