package numbers;

/** Largest of a few values. */
public class Largest {
  public int max3(int a, int b, int c) {
    int ab = a >= b ? a : b;
    return ab >= c ? ab : c;
  }
}
