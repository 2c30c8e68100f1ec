package p;

public class Div {
  //@ ensures \result == n / d;
  //@ signals (ArithmeticException e) d == 0;
  public static int quotient(int n, int d) {
    return n / d;
  }
}
