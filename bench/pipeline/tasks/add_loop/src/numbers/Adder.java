package numbers;

/** Addition by counting, as a teaching example of loops. */
public class Adder {
  /** x + y, computed one step at a time. */
  public int add(int x, int y) {
    int result = x;
    int steps = y < 0 ? -y : y;
    for (int i = 0; i < steps; i++) {
      if (y > 0) {
        result++;
      } else {
        result--;
      }
    }
    return result;
  }
}
