package kitchen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RoastTest {
  @Test
  void fiveKilos() {
    assertEquals(220, Roast.minutes(5));
  }

  @Test
  void nothingToRoast() {
    assertEquals(0, Roast.minutes(0));
  }
}
