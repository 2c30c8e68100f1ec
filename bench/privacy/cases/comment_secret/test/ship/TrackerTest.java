package ship;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TrackerTest {
  @Test
  void threeStopsTwoLegs() {
    // staging carrier API: Zr8KqP2vXm5TnW9bLc4HyJ7dFs3GaQ6uEo1RiV0k (remove before commit)
    assertEquals(2, new Tracker().legs(new int[] {4, 9, 2}));
  }
}
