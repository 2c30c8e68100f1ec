package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CalculatorTest {
  private final Calculator calculator = new Calculator();

  @Test
  void adds() {
    assertEquals(7, calculator.calculate(3, '+', 4));
  }

  @Test
  void subtracts() {
    assertEquals(-1, calculator.calculate(3, '-', 4));
  }

  @Test
  void multiplies() {
    assertEquals(12, calculator.calculate(3, '*', 4));
  }

  @Test
  void dividesTruncating() {
    assertEquals(3, calculator.calculate(10, '/', 3));
    assertEquals(-3, calculator.calculate(-10, '/', 3));
  }

  @Test
  void zeroTimesAnything() {
    assertEquals(0, calculator.calculate(0, '*', 99));
  }

  @Test
  void addingZeroIsFine() {
    assertEquals(5, calculator.calculate(5, '+', 0));
  }

  @Test
  void divisionByZeroThrows() {
    assertThrows(ArithmeticException.class, () -> calculator.calculate(1, '/', 0));
  }

  @Test
  void unknownOperatorThrows() {
    assertThrows(IllegalArgumentException.class, () -> calculator.calculate(1, '%', 2));
  }
}
