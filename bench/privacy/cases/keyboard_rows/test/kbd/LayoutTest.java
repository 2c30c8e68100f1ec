package kbd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LayoutTest {
  @Test
  void topRow() {
    assertEquals(1, Layout.rowOf('q'));
  }

  @Test
  void bottomRow() {
    assertEquals(3, Layout.rowOf('m'));
  }
}
