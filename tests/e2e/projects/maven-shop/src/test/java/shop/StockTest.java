package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StockTest {
  @Test
  void takingUnitsLowersTheStock() {
    Stock stock = new Stock(10);
    stock.take(3);
    stock.take(7);
    assertEquals(0, stock.onHand());
  }

  @Test
  void takingMoreThanOnHandFails() {
    Stock stock = new Stock(2);
    assertThrows(IllegalStateException.class, () -> stock.take(3));
    assertEquals(2, stock.onHand());
  }
}
