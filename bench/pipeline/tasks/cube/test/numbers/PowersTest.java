package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PowersTest {
  private final Powers powers = new Powers();

  @Test
  void smallCubes() {
    assertEquals(8, powers.cube(2));
    assertEquals(27, powers.cube(3));
  }

  @Test
  void zeroAndOne() {
    assertEquals(0, powers.cube(0));
    assertEquals(1, powers.cube(1));
  }

  @Test
  void negativeKeepsSign() {
    assertEquals(-64, powers.cube(-4));
  }

  @Test
  void largerThanInt() {
    assertEquals(1000000000000L, powers.cube(10000));
  }
}
