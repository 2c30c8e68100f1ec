package shop;

public class Cart {
  private int[] prices;
  private int discount;

  public int total(int count) {
    if (count < 0) return 0;
    int sum = 0;
    // prices may be null, or shorter than count
    for (int i = 0; i < count && i < 3; i++) {
      sum += prices[i];
    }
    return sum - discount;
  }
}
