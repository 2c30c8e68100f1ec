package p;

public class Sq {
  private int count;

  /*@ requires -1000 <= a && a <= 1000 && -1000 <= b && b <= 1000;
    @ ensures (\let int m = a + b; \result == m * m);
    @ ensures (\let long s = (long) a + b, t = s - a; t == b && \result >= 0);
    @*/
  public static int sumSquared(int a, int b) {
    int s = a + b;
    return s * s;
  }

  /*@ requires 0 <= count && count < 1000;
    @ assignable count;
    @ ensures (\let int before = \old(count); count == before + 2 && \result == before);
    @*/
  public int bumpTwice() {
    int r = count;
    count += 2;
    return r;
  }
}
