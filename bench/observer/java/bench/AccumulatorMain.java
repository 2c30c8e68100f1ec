package bench;

/** The calls of AccumulatorBench driven by a main instead of JUnit. */
public final class AccumulatorMain {
  private AccumulatorMain() {}

  public static void main(String[] args) {
    Accumulator accumulator = new Accumulator();
    int[] values = new int[16];
    int sum = 0;
    long total = 0;
    long returned = 0;
    for (int i = 0; i < AccumulatorBench.CALLS; i++) {
      sum += i - values[i & 15];
      values[i & 15] = i;
      total += sum;
      returned = accumulator.add(values);
    }
    if (total != returned) {
      System.err.println("wrong sum: " + returned + " instead of " + total);
      System.exit(1);
    }
  }
}
