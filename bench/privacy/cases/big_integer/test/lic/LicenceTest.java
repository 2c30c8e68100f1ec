package lic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LicenceTest {
  @Test
  void activates() {
    assertTrue(new Licence(Store.purchased()).activate());
  }
}
