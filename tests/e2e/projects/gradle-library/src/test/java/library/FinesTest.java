package library;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FinesTest {
  @Test
  void onTimeCostsNothing() {
    assertEquals(0, Fines.fine(0, 25));
    assertEquals(0, Fines.fine(-3, 25));
  }

  @Test
  void eachLateDayCosts() {
    assertEquals(75, Fines.fine(3, 25));
    assertEquals(10, Fines.fine(1, 10));
  }
}
