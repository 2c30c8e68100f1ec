package bench.contracts;

/** A counter with a limit; reset() also counts how often it was reset. */
public class Counter {
  private int count;
  private int limit;
  private int resets;

  public Counter(int limit) {
    this.limit = limit;
  }

  public void increment() {
    if (count == limit) {
      throw new IllegalStateException("at limit");
    }
    count++;
  }

  public void add(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("negative");
    }
    count += n;
  }

  public void reset() {
    count = 0;
    resets++;
  }

  public int remaining() {
    return limit - count;
  }
}
