package calc;

/** A four-function integer calculator. */
public class Calculator {
  /** Applies {@code operator} ('+', '-', '*' or '/') to the two operands. */
  public int calculate(int left, char operator, int right) {
    switch (operator) {
      case '+':
        return left + right;
      case '-':
        return left - right;
      case '*':
        return left * right;
      case '/':
        if (right == 0) {
          throw new ArithmeticException("division by zero");
        }
        return left / right;
      default:
        throw new IllegalArgumentException("unknown operator " + operator);
    }
  }
}
