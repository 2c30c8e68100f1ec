package numbers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MultiplesTest {
  private final Multiples multiples = new Multiples();

  @Test
  void smallNumbers() {
    assertEquals(12, multiples.lcm(4, 6));
  }

  @Test
  void coprimeMultiply() {
    assertEquals(35, multiples.lcm(5, 7));
  }

  @Test
  void oneDividesTheOther() {
    assertEquals(20, multiples.lcm(5, 20));
  }

  @Test
  void withOne() {
    assertEquals(9, multiples.lcm(1, 9));
  }

  @Test
  void largeValuesDoNotOverflow() {
    assertEquals(4294967294L, multiples.lcm(Integer.MAX_VALUE, 2));
  }

  @Test
  void zeroIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> multiples.lcm(0, 3));
  }
}
