package clicks;

/** A hand tally counter that stops at its limit. */
public class TallyCounter {
  private final int limit;
  private int count;

  public TallyCounter(int limit) {
    this.limit = limit;
  }

  /** Adds one; at the limit the counter is full and refuses. */
  public void click() {
    if (count >= limit) {
      throw new IllegalStateException("counter full");
    }
    count++;
  }

  public int getCount() {
    return count;
  }
}
