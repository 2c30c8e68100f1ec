package hexa;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BadgeTest {
  @Test
  void twoHexDigitsPerChar() {
    assertEquals(32, new Badge(Issuer.current()).render());
  }

  @Test
  void renderingTwiceIsStable() {
    Badge b = new Badge(Issuer.current());
    b.render();
    assertEquals(32, b.render());
  }
}
