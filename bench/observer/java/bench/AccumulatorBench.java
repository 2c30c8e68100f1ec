package bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Calls the target 100,000 times with a 16-element int[]. */
class AccumulatorBench {
  static final int CALLS = 100_000;

  @Test
  void manyCalls() {
    Accumulator accumulator = new Accumulator();
    int[] values = new int[16];
    int sum = 0;
    long total = 0;
    long returned = 0;
    for (int i = 0; i < CALLS; i++) {
      sum += i - values[i & 15];
      values[i & 15] = i;
      total += sum;
      returned = accumulator.add(values);
    }
    assertEquals(total, returned);
  }
}
