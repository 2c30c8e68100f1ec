package stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class IntStackTest {
  @Test
  void pushThenPop() {
    IntStack s = new IntStack(4);
    s.push(7);
    assertEquals(1, s.size());
    assertEquals(7, s.pop());
  }

  @Test
  void lastInFirstOut() {
    IntStack s = new IntStack(4);
    s.push(1);
    s.push(2);
    s.push(3);
    assertEquals(3, s.pop());
    assertEquals(2, s.pop());
  }

  @Test
  void pushNegative() {
    IntStack s = new IntStack(1);
    s.push(-5);
    assertEquals(-5, s.pop());
  }

  @Test
  void fullStackRefuses() {
    IntStack s = new IntStack(2);
    s.push(1);
    s.push(2);
    assertThrows(IllegalStateException.class, () -> s.push(3));
    assertEquals(2, s.size());
  }

  @Test
  void emptyPopThrows() {
    assertThrows(IllegalStateException.class, () -> new IntStack(3).pop());
  }
}
