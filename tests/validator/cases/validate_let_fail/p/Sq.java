package p;

// The code of validate_let_ok with one bug in each method; the contract is
// that case's.
public class Sq {
  private int count;

  public static int sumSquared(int a, int b) {
    return a * a + b * b;
  }

  public int bumpTwice() {
    int r = count;
    count += 1;
    return r;
  }
}
