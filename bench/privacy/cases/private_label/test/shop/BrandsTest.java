package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BrandsTest {
  @Test
  void firstAisle() {
    assertEquals(4017, Brands.privateLabelCode(1));
  }
}
