package numbers;

/** Integer powers. */
public class Powers {
  /** n cubed, computed in long arithmetic. */
  public long cube(int n) {
    long x = n;
    return x * x * x;
  }
}
