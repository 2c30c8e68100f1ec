package bench;

/** The benchmark's target: an object receiver and an int[] argument. */
public class Accumulator {
  private long total;
  private int calls;
  private int last;

  public long add(int[] values) {
    int sum = 0;
    for (int v : values) {
      sum += v;
    }
    total += sum;
    calls++;
    last = sum;
    return total;
  }
}
