package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CartTest {
  @Test
  void addingItemsCountsThemAndSumsThePrice() {
    Cart cart = new Cart();
    cart.add(250, 2);
    cart.add(1000, 1);
    assertEquals(3, cart.itemCount());
    assertEquals(1500, cart.total());
  }

  @Test
  void aFreeItemIsAllowed() {
    Cart cart = new Cart();
    cart.add(0, 4);
    assertEquals(4, cart.itemCount());
  }

  @Test
  void aNonPositiveQuantityIsRejected() {
    Cart cart = new Cart();
    assertThrows(IllegalArgumentException.class, () -> cart.add(100, 0));
    assertThrows(IllegalArgumentException.class, () -> cart.add(-5, 1));
  }

  @Test
  void clearEmptiesTheCart() {
    Cart cart = new Cart();
    cart.add(300, 3);
    cart.clear();
    assertEquals(0, cart.itemCount());
    assertEquals(0, cart.total());
  }
}
