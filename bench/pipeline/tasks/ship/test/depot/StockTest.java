package depot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StockTest {
  @Test
  void shippingTakesUnitsOut() {
    Stock stock = new Stock(10);
    stock.ship(3);
    assertEquals(7, stock.getOnHand());
  }

  @Test
  void shippingEverythingEmptiesTheStock() {
    Stock stock = new Stock(4);
    stock.ship(4);
    assertEquals(0, stock.getOnHand());
  }

  @Test
  void nothingIsNotAnOrder() {
    Stock stock = new Stock(6);
    assertThrows(IllegalArgumentException.class, () -> stock.ship(0));
    assertThrows(IllegalArgumentException.class, () -> stock.ship(-2));
    assertEquals(6, stock.getOnHand());
  }

  @Test
  void tooLargeAnOrderIsRefused() {
    Stock stock = new Stock(5);
    assertThrows(IllegalStateException.class, () -> stock.ship(6));
    assertEquals(5, stock.getOnHand());
  }

  @Test
  void emptyStockRefuses() {
    Stock stock = new Stock(0);
    assertThrows(IllegalStateException.class, () -> stock.ship(1));
  }

  @Test
  void repeatedShipmentsRunOut() {
    Stock stock = new Stock(5);
    stock.ship(2);
    stock.ship(2);
    assertThrows(IllegalStateException.class, () -> stock.ship(2));
    assertEquals(1, stock.getOnHand());
  }
}
