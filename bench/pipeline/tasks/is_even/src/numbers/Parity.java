package numbers;

/** Parity tests. */
public class Parity {
  public boolean isEven(int n) {
    return n % 2 == 0;
  }
}
